"""Start the LLM endpoint only when a stage first needs it, stop it once at the end."""

from contextlib import ExitStack

from pipeline.llm.client import OpenAILLM
from pipeline.llm.options import LLMSetup
from pipeline.llm.server import embedded_model_id, llm_endpoint


class LLMSession:
    """Context manager handing out one OpenAILLM; a fully cached run never starts a server."""

    def __init__(self, setup: LLMSetup) -> None:
        self.setup = setup
        self._stack = ExitStack()
        self._llm: OpenAILLM | None = None
        self.runtime: str | None = None  # what serves the model, once started

    @property
    def model_id(self) -> str:
        """Known without starting anything, so cache keys can be checked first."""
        if self.setup.llm.base_url:
            return self.setup.llm.model or ""
        return embedded_model_id(self.setup.llama)

    def get(self) -> OpenAILLM:
        if self._llm is None:
            endpoint, server = self._stack.enter_context(llm_endpoint(self.setup))
            revive = server.revive if server is not None else None
            self.runtime = (
                server.describe() if server else f"{endpoint.base_url} ({endpoint.slots} at once)"
            )
            self._llm = OpenAILLM(endpoint, self.setup.llm, revive=revive)
        return self._llm

    def __enter__(self) -> "LLMSession":
        return self

    def __exit__(self, *exc) -> None:
        self._stack.close()
        self._llm = None
