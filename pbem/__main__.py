"""`python -m pbem`: the command line."""

from pbem.cli import main

main()
