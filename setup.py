"""The CMake side of `pip install .` (pyproject.toml): builds the extension animkit._animkit with
the project's CMake and puts it in the package. ANIMKIT_BUILD_DIR names a configured build tree to
reuse (make test passes build/release); otherwise build/python is configured with the tests,
benchmarks and fuzzers off. The version is the one project() in CMakeLists.txt declares."""

import os
import pathlib
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).parent.resolve()


def project_version():
    text = (ROOT / "CMakeLists.txt").read_text()
    return re.search(r"project\(animkit VERSION ([0-9.]+)", text).group(1)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = pathlib.Path(os.environ.get("ANIMKIT_BUILD_DIR") or ROOT / "build" / "python").resolve()
        if not (build / "CMakeCache.txt").exists():
            subprocess.check_call([
                "cmake", "-S", str(ROOT), "-B", str(build), "-G", "Ninja",
                "-DCMAKE_BUILD_TYPE=Release", "-DANIMKIT_TESTS=OFF", "-DANIMKIT_BENCH=OFF",
                # The interpreter pip runs: a venv's python has the ABI of the one it was made from.
                f"-DPython3_EXECUTABLE={sys.executable}",
            ])
        if "ANIMKIT_SHARED:BOOL=ON" in (build / "CMakeCache.txt").read_text():
            # The wheel carries the extension alone: it must hold the libraries (static).
            raise RuntimeError(f"{build} builds shared libraries; the wheel needs a static build")
        jobs = os.environ.get("JOBS", "2")
        subprocess.check_call(["cmake", "--build", str(build), "--target", "animkit_python", "-j", jobs])
        built = sorted((build / "python" / "animkit").glob("_animkit*.so"))
        if not built:
            raise RuntimeError(f"no _animkit extension under {build}/python/animkit")
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built[0], target)


setup(
    version=project_version(),
    ext_modules=[Extension("animkit._animkit", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
)
