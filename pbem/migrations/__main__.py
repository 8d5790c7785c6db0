"""alembic's own command line over pbem's migrations, with no alembic.ini:

    python -m pbem.migrations [--url URL] current | history | upgrade [REV] | revision --autogenerate -m MSG | ...

The database is --url, else $PBEM_DATABASE_URL. `upgrade` to head goes through
pbem.migrations.upgrade (locking, stamping a create_all database), like every pbem command.
"""

from __future__ import annotations

import os
import sys

from alembic.config import CommandLine

from pbem.migrations import alembic_config, upgrade
from pbem.store import open_engine


def main(argv: list[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    url = os.environ.get("PBEM_DATABASE_URL")
    if len(args) >= 2 and args[0] == "--url":
        url, args = args[1], args[2:]
    if args[:1] == ["upgrade"] and args[1:] in ([], ["head"]):
        if not url:
            raise SystemExit("no database: pass --url URL or set PBEM_DATABASE_URL")
        engine = open_engine(url)
        try:
            upgrade(engine)
        finally:
            engine.dispose()
        return
    cli = CommandLine(prog="python -m pbem.migrations [--url URL]")
    options = cli.parser.parse_args(args)
    if not hasattr(options, "cmd"):
        cli.parser.error("too few arguments")
    cli.run_cmd(alembic_config(url=url), options)


if __name__ == "__main__":
    main()
