"""The installed ``scrawl`` script's entry point, kept apart from ``scrawl.cli``.

The scanner's worker processes start fresh (``spawn``) and import the
program's main script again before they read a photo; from this module that
costs nothing, where ``scrawl.cli`` would bring typer and the command's own
imports into every worker (about 0.07 s each).
"""


def run() -> None:
    from scrawl.cli import run as run_command

    run_command()
