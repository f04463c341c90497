"""Shared pytest plugins: real Redis servers and a real running service."""

pytest_plugins = ["tests.fixtures.redis_servers", "tests.fixtures.live_service"]
