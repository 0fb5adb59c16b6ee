"""The wheel carries the executed lessons as ``iaa_teach/lessons/*.ipynb``, for ``iaa-teach lessons DIR``.

Everything else about the package is in ``pyproject.toml``. A clone (and an
editable install) reads the lessons from ``notebooks/`` instead.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithLessons(build_py):
    def run(self):
        super().run()
        if not getattr(self, "editable_mode", False):
            target = Path(self.build_lib, "iaa_teach", "lessons")
            self.mkpath(str(target))
            for notebook in sorted(Path("notebooks").glob("*.ipynb")):
                self.copy_file(str(notebook), str(target / notebook.name))


setup(cmdclass={"build_py": BuildWithLessons})
