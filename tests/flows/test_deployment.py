import yaml
from prefect.schedules import Cron

from tests.helpers import REPO


def test_prefect_yaml_deploys_the_nightly_flow_on_a_cron_with_a_time_zone():
    config = yaml.safe_load((REPO / "prefect.yaml").read_text())
    nightly = next(d for d in config["deployments"] if d["name"] == "nightly")
    module, function = nightly["entrypoint"].split(":")
    assert (REPO / module).is_file() and function == "nightly"
    [schedule] = nightly["schedules"]
    Cron(schedule["cron"], timezone=schedule["timezone"])  # a valid cron and time zone
    assert schedule["timezone"] == "Asia/Shanghai"
