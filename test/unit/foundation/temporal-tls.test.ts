import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { tlsOptions } from '../../../core/temporal/connection.js';

describe('Temporal client certificates', () => {
  it('a certificate or key file that cannot be read stops the start naming its variable and the file', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-tls-'));
    try {
      const cert = path.join(dir, 'client.pem');
      await fs.writeFile(cert, 'not really a certificate');
      const target = { address: '127.0.0.1:7233', namespace: 'default', tls: true };
      await assert.rejects(tlsOptions({ ...target, tlsCertPath: path.join(dir, 'missing.pem'), tlsKeyPath: cert }), {
        message: `cannot read TEMPORAL_TLS_CERT (${path.join(dir, 'missing.pem')}): ENOENT`,
      });
      await assert.rejects(tlsOptions({ ...target, tlsCertPath: cert, tlsKeyPath: dir }), { message: `cannot read TEMPORAL_TLS_KEY (${dir}): EISDIR` });
      const read = await tlsOptions({ ...target, tlsCertPath: cert, tlsKeyPath: cert });
      assert.ok(read !== true && read?.clientCertPair.crt.equals(Buffer.from('not really a certificate')));
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
