"""The kinds of exam question, one module each (``cohen.py``) with its words beside it (``cohen.toml``).

Every module here whose name does not start with ``_`` defines ``KIND``, an instance of its subclass of
:class:`~iaa_teach.exercises._kind.Kind`; :data:`REGISTRY` holds them in the order of the question codes'
registry (``lesson_exercises.json``, ``practice.kinds``: a new kind goes at its end). CONTRIBUTING.md
("Adding a question kind") walks through adding one.
"""

from __future__ import annotations

import importlib
import pkgutil

from ..lesson_exercises import PRACTICE

__all__ = ["KINDS", "REGISTRY"]

#: The kinds of question, in the fixed order of the question codes' registry.
KINDS = tuple(PRACTICE["kinds"])
_found = {
    m.name: importlib.import_module(f"{__name__}.{m.name}").KIND
    for m in pkgutil.iter_modules(__path__)
    if not m.name.startswith("_")
}
if sorted(_found) != sorted(KINDS):  # pragma: no cover - a kind's module without its code, or the other way
    raise RuntimeError(
        f"the question kinds' modules ({', '.join(sorted(_found))}) and lesson_exercises.json's practice "
        f"kinds ({', '.join(KINDS)}) must name the same kinds"
    )
#: Each kind's :class:`~iaa_teach.exercises._kind.Kind`, by name, in the order of :data:`KINDS`.
REGISTRY = {name: _found[name] for name in KINDS}
