"""The portable llama.cpp runtime: built by `talk2article prepare` (make setup), it runs on
any x86-64 CPU whichever machine built it. A machine whose CPU advertises AMX died at the
first completion in ggml's AMX kernels; this machine may have no AMX, so the proof is that
no library the server can load holds an AMX instruction, and that the CPU code is chosen
at run time among variants none of which is built for AMX."""

import re
import shutil
import subprocess

import pytest

from pipeline.llm.runtime import CPU_VARIANTS, keep_variants, runtime_dir
from pipeline.settings import Settings

AMX = re.compile(
    r"\b(?:tilezero|tileloadd\w*|tilestored|tdp\w+ps|tdpb[su]{2}d|ldtilecfg|sttilecfg|tilerelease)\b"
)


@pytest.fixture(scope="module")
def runtime():
    folder = runtime_dir(Settings().cache_dir) / "bin"
    if not (folder / "llama-server").is_file():
        pytest.fail(f"{folder} has no llama-server: run `talk2article prepare` (make setup)")
    return folder


def test_no_library_the_server_loads_holds_an_amx_instruction(runtime):
    assert shutil.which("objdump"), "objdump (binutils) is needed to read the machine code"
    binaries = [p for p in runtime.iterdir() if p.is_file() and not p.is_symlink()]
    assert any(p.name.startswith("libggml-cpu-") for p in binaries)
    for binary in binaries:
        code = subprocess.run(
            ["objdump", "-d", "--no-show-raw-insn", str(binary)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert not AMX.search(code), f"{binary.name} holds AMX instructions"


def test_the_cpu_code_is_chosen_at_run_time_among_the_portable_variants(runtime):
    variants = sorted(p.name for p in runtime.glob("libggml-cpu-*.so"))
    assert variants == sorted(f"libggml-cpu-{v}.so" for v in CPU_VARIANTS)
    assert not (runtime / "libggml-cpu.so").exists()  # no build for the building machine


def test_only_the_chosen_variants_are_built(tmp_path):
    cmake = tmp_path / "CMakeLists.txt"
    cmake.write_text(
        'if (GGML_SYSTEM_ARCH STREQUAL "x86")\n'
        "    ggml_add_cpu_backend_variant(x64)\n"
        "    ggml_add_cpu_backend_variant(haswell  SSE42 AVX F16C FMA AVX2 BMI2)\n"
        "    ggml_add_cpu_backend_variant(sapphirerapids SSE42 AVX512 AMX_TILE AMX_INT8)\n"
        'elseif(GGML_SYSTEM_ARCH STREQUAL "ARM")\n'
        "    ggml_add_cpu_backend_variant(armv8.0_1)\n"
    )
    keep_variants(cmake, ("x64", "haswell"))
    text = cmake.read_text()
    assert "    # ggml_add_cpu_backend_variant(sapphirerapids" in text
    assert "\n    ggml_add_cpu_backend_variant(haswell" in text
    assert "\n    ggml_add_cpu_backend_variant(armv8.0_1)" in text  # other arches untouched


def test_a_machine_without_cmake_is_told_what_to_install_before_any_download(tmp_path, monkeypatch):
    from pipeline.core.models import ModelAssetError
    from pipeline.llm import runtime as built

    monkeypatch.setattr(built.shutil, "which", lambda name: None if name == "cmake" else name)
    monkeypatch.setattr(built, "download_source", lambda *_: pytest.fail("downloaded"))
    with pytest.raises(ModelAssetError, match="needs cmake, not found.*apt-get install cmake"):
        built.build_runtime(tmp_path, say=lambda _: None)
