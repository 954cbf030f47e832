"""The front end's fast paths: op forms read with one regex, texts parsed once per module, reused
printed templates. Each builds exactly what xDSL's general path builds (tests/python/frontend/fast)."""
