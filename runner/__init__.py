"""Running models: send a prompt file to an OpenAI-compatible endpoint (``spatialbabel run``).

- ``runner.requests``: the request file, the generation settings each request is sent with,
  and the hash that keys the cache;
- ``runner.journal``: the cache, an append-only JSONL journal that a killed run resumes from;
- ``runner.client``: the one module that imports the ``openai`` client;
- ``runner.engine``: concurrency, retries with backoff, progress;
- ``runner.records``: what a run writes, in the format ``score`` and ``score-qa`` read;
- ``runner.stub_server``: a local OpenAI-compatible server with canned replies and faults, for
  tests, benchmarks and ``spatialbabel demo --via-server``.

The runner uses the hub only; no stage imports it.
"""
