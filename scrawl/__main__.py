"""``python -m scrawl``: the ``scrawl`` command, for a machine where the script is not on the PATH.

(A scan's spawned workers do not run this again: multiprocessing never re-imports a package's
``__main__``.)
"""
from scrawl.command import run

run()
