import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { stopAtSuiteEnd } from './teardown.js';
import { tempDir } from './services.js';

/** A free loopback port (for processes that must be told theirs in advance). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface Prometheus {
  /** One instant query's samples: their labels and values. */
  query(promql: string): Promise<Array<{ labels: Record<string, string>; value: number }>>;
}

/** Debian's Prometheus (infra/setup.sh --test) scraping `targets` every second, from a temp folder. */
export async function startPrometheus(targets: Record<string, string>): Promise<Prometheus> {
  const dir = await tempDir('quire-prometheus-');
  const jobs = Object.entries(targets)
    .map(([job, hostPort]) => `  - job_name: ${job}\n    static_configs:\n      - targets: ['${hostPort}']`)
    .join('\n');
  await fs.writeFile(path.join(dir, 'prometheus.yml'), `global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n${jobs}\n`);
  const port = await freePort();
  const child = spawn(
    'prometheus',
    [`--config.file=${path.join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  stopAtSuiteEnd(child);
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ready = await fetch(`${base}/-/ready`).then((r) => r.ok, () => false);
    if (ready) break;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`prometheus did not start:\n${stderr}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    async query(promql) {
      const res = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(promql)}`);
      const body: { status: string; data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> } } = JSON.parse(await res.text());
      if (body.status !== 'success') throw new Error(`query failed: ${promql}`);
      return body.data.result.map((r) => ({ labels: r.metric, value: Number(r.value[1]) }));
    },
  };
}
