"""The package a file belongs to, as the interpreter would import it.

A module's absolute import of its own package (``from deepchem.models import Model``
inside ``deepchem/``) names a class or function of the project, as a relative import
does: the analysis must know which top-level name is the file's own.
"""

from __future__ import annotations

import os
from typing import Optional


def package_of(path: str) -> Optional[str]:
    """The top-level package holding the file ``path`` (the outermost directory of an
    unbroken chain of ``__init__.py`` files above it), or None for a script or a module
    outside any package. Asked afresh each time (a few ``stat`` calls): a long-running
    server sees an ``__init__.py`` added or removed."""
    directory = os.path.dirname(os.path.abspath(path))
    found = None
    while os.path.isfile(os.path.join(directory, "__init__.py")):
        name = os.path.basename(directory)
        found = name if name.isidentifier() else found
        parent = os.path.dirname(directory)
        if parent == directory:
            break
        directory = parent
    return found
