"""talk2article: turn a recorded technical talk and its deck into grounded articles.

One folder per stage, in the order data flows (the table is pipeline/stages.py):
talk -> deck -> transcript -> timeline -> evidence -> writing (outline, draft) -> review
-> article. Shared pieces beside them: schema/ (contracts), llm/, runner.py (one stage
runner), store.py, settings.py, prompts.py, models.py, text.py. No Prefect import here;
flows/ wires the stages together.
"""

__version__ = "0.1.0"
