"""The JupyterLab settings this project changes for its own environment (``make lab``, ``make test``).

:data:`LAB_OVERRIDES`: no news prompt, no "Modified" column cutting off the
lesson names; :func:`write_lab_overrides` writes them to
``{sys.prefix}/share/jupyter/lab/settings/overrides.json``.

Usage: ``python -m tools.lab_settings`` (from the clone).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

#: JupyterLab settings this project changes for its own environment: no
#: "would you like to get notified about official Jupyter news?" prompt over
#: every notebook, and no update check (which would go to the network).
LAB_OVERRIDES = {
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
    # the file browser's width goes to the lesson names (the "Modified" column cut them off)
    "@jupyterlab/filebrowser-extension:browser": {"showLastModifiedColumn": False},
}


def lab_overrides_path(prefix: str | Path | None = None) -> Path:
    """Where JupyterLab reads an environment's setting overrides.

    That is ``{prefix}/share/jupyter/lab/settings/overrides.json``.
    """
    return (
        Path(sys.prefix if prefix is None else prefix)
        / "share"
        / "jupyter"
        / "lab"
        / "settings"
        / "overrides.json"
    )


def write_lab_overrides(prefix: str | Path | None = None) -> Path:
    """Merge :data:`LAB_OVERRIDES` into the environment's ``overrides.json``; return its path.

    Other settings in the file are kept.

    A user's own settings (``~/.jupyter/lab/user-settings``) still win over these.
    """
    path = lab_overrides_path(prefix)
    current = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    for plugin, values in LAB_OVERRIDES.items():
        current.setdefault(plugin, {}).update(values)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(current, indent=2) + "\n", encoding="utf-8")
    return path


if __name__ == "__main__":
    print(f"JupyterLab settings for this environment: {write_lab_overrides()}")
