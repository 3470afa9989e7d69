"""Prompt templates as versioned files: prompts/<id>.yaml with `system` and `user` parts.

The templates ship inside the installed package (the top-level `prompts` package, read
with importlib.resources); in a source checkout they are the files in prompts/, editable
in place. Settings can point at another folder of templates.

Placeholders are `{{ name }}`; a missing or an unused variable is an error, so a prompt
and the code that fills it cannot drift apart silently. A line whose placeholders are all
filled with nothing is left out: an empty list is not said at all (a stand-in such as
"(none)" is a word the model writes back).
"""

import re
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

import yaml

from pipeline.core.store import sha256_bytes

PLACEHOLDER = re.compile(r"\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}")


# Notes the code adds to a prompt on a second try. Fixed wording, so text that repeats them
# is caught as an echo like the prompt files' own lines.
RETRY_NOTE = "A previous answer was invalid: {problem}. Avoid that mistake."
REVISE_NOTE = "A previous version had these problems: {findings}. Write it again without them."


class PromptError(ValueError):
    pass


@dataclass(frozen=True)
class Prompt:
    id: str
    sha256: str
    system: str
    user: str

    def variables(self) -> set[str]:
        return set(PLACEHOLDER.findall(self.system)) | set(PLACEHOLDER.findall(self.user))

    def render(self, **values: str) -> "RenderedPrompt":
        expected, given = self.variables(), set(values)
        if expected != given:
            raise PromptError(
                f"prompt {self.id}: missing {sorted(expected - given)}, "
                f"unexpected {sorted(given - expected)}"
            )

        def fill(text: str) -> str:
            lines = [
                line
                for line in text.split("\n")
                if not (names := PLACEHOLDER.findall(line)) or any(str(values[n]) for n in names)
            ]
            return PLACEHOLDER.sub(lambda m: str(values[m.group(1)]), "\n".join(lines))

        return RenderedPrompt(self.id, self.sha256, fill(self.system), fill(self.user))


@dataclass(frozen=True)
class RenderedPrompt:
    id: str
    sha256: str
    system: str
    user: str

    def messages(self) -> list[dict[str, str]]:
        return [{"role": "system", "content": self.system}, {"role": "user", "content": self.user}]


def load_prompt(prompt_id: str, prompts_dir: Path | None = None) -> Prompt:
    """The template `prompt_id` from `prompts_dir`, or the one shipped with the package."""
    path = (prompts_dir or files("prompts")) / f"{prompt_id}.yaml"
    if not path.is_file():
        raise PromptError(f"prompt file {path} does not exist")
    raw = path.read_bytes()
    data = yaml.safe_load(raw)
    if not isinstance(data, dict) or set(data) != {"id", "system", "user"}:
        raise PromptError(f"{path}: needs exactly the keys id, system, user")
    if data["id"] != prompt_id:
        raise PromptError(f"{path}: id {data['id']!r} does not match the file name")
    return Prompt(prompt_id, sha256_bytes(raw), data["system"], data["user"])
