"""The talk flow's fixtures (a Prefect test harness, a talk folder) for the edits' reruns."""

from tests.flows.test_talk import prefect, talk  # noqa: F401
