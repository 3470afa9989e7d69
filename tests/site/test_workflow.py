from pathlib import Path

import yaml

from tests.helpers import REPO


def test_the_pages_workflow_builds_the_site_where_the_cli_puts_it():
    workflow = yaml.safe_load((REPO / ".github/workflows/site.yml").read_text())
    steps = workflow["jobs"]["build"]["steps"]
    commands = " ".join(step.get("run", "") for step in steps)
    assert "talk2article run --all" in commands and "talk2article site build" in commands
    upload = next(s for s in steps if s.get("uses", "").startswith("actions/upload-pages"))
    assert Path(upload["with"]["path"]) == Path("outputs/site/public")
    assert workflow["jobs"]["deploy"]["steps"][0]["uses"].startswith("actions/deploy-pages")
