"""`python -m pipeline.site.mkdocs_build build …`: the mkdocs command, without the warning
every `--dirty` build logs (which `--strict` would count as a failure); every other
warning still fails a strict build. The site's own code decides when a dirty build is
safe (pipeline.site.build)."""

import logging
import sys

from mkdocs.__main__ import cli


class WithoutDirtyNotice(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return "'dirty' build is being performed" not in record.getMessage()


if __name__ == "__main__":
    logging.getLogger("mkdocs.commands.build").addFilter(WithoutDirtyNotice())
    sys.exit(cli(prog_name="mkdocs"))
