# The Gin Rummy service: gunicorn + Flask, what is live in Redis (REDIS_URL), what lasts in PostgreSQL
# (DATABASE_URL). Build from the repository root:
#   docker build -t ginrummy:0.1.0 .
#   docker run --rm -e DATABASE_URL=postgresql://gin:pw@db:5432/ginrummy ginrummy:0.1.0 ginrummy-migrate
#   docker run -p 8000:8000 -e REDIS_URL=redis://redis:6379/0 -e DATABASE_URL=postgresql://… ginrummy:0.1.0
# The build installs the exact versions of deploy/constraints.txt (regenerate with deploy/make_constraints.py):
# psycopg with its own libpq (psycopg-binary) and psycopg-pool among them, so the slim image needs no
# system package for PostgreSQL; the schema migrations ship inside the package (ginrummy-migrate).

# --- build: a virtualenv with the project and its pinned dependencies ----------------------------------
FROM python:3.11-slim-bookworm AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH
WORKDIR /src
# Dependencies first, in their own layer: source edits do not reinstall them.
COPY deploy/constraints.txt deploy/constraints.txt
RUN pip install --no-cache-dir -r deploy/constraints.txt
COPY pyproject.toml README.md ./
COPY service service
RUN pip install --no-cache-dir --no-deps -c deploy/constraints.txt . \
    && pip check

# --- runtime: the virtualenv, the gunicorn config, a non-root user -------------------------------------
FROM python:3.11-slim-bookworm
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    GIN_BIND=0.0.0.0:8000 \
    GIN_WEB_DIR=/app/clients/web
RUN groupadd --system --gid 10001 gin \
    && useradd --system --uid 10001 --gid gin --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin gin
COPY --from=build /opt/venv /opt/venv
WORKDIR /app
COPY deploy/gunicorn.conf.py deploy/healthcheck.py deploy/
# The web client at /play: static files, served by the app.
COPY clients/web clients/web
USER 10001:10001
EXPOSE 8000
# gunicorn drains on SIGTERM: it stops accepting and lets in-flight requests finish (graceful_timeout).
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=5s --start-period=15s --retries=3 CMD ["python", "deploy/healthcheck.py"]
CMD ["gunicorn", "-c", "deploy/gunicorn.conf.py", "ginrummy.http.wsgi:app"]
