"""The LLM behind one small interface (client.py), the embedded llama.cpp server
(server.py), the session that starts it only when a stage first needs it (session.py), and
sentences written one per call, each answer checked and asked again once (rounds.py)."""
