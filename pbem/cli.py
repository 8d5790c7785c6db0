"""The `pbem` command line: a thin layer over the library."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pbem import __version__
from pbem.errors import PbemError


class _Group(click.Group):
    """Turns PbemError into a clean message and exit code 1."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except PbemError as err:
            raise click.ClickException(str(err)) from None


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pbem")
def main() -> None:
    """pbem — a play-by-email moderator for Hare & Tortoise.

    Example: pbem demo /tmp/pbem-demo
    """


@main.command("check-cases")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-v", "--verbose", is_flag=True, help="Also list the cases that pass.")
def check_cases_cmd(paths: tuple[Path, ...], verbose: bool) -> None:
    """Run rule cases (.case files, or folders searched for them) against the engine.

    Prints every failing case in full, then `N passed, M failed`; exits 1 if any failed.

    Example: pbem check-cases tests/cases my-bug.case
    """
    from pbem.cases import check_cases

    passed = failed = 0
    for result in check_cases(paths):
        if result.passed:
            passed += 1
            if verbose:
                click.echo(f"ok   {result.case_id} ({result.where})")
        else:
            failed += 1
            click.echo(result.report)
            click.echo()
    click.echo(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
