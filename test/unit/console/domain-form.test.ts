import assert from 'node:assert/strict';
import type { ResponseOf } from '../../../console/api/responses.js';
import { domainPatch, newDomainBody, pollMinutesOf } from '../../../console/data/domain-form.js';

const domain: ResponseOf<'adminGetDomain'> = {
  id: 'acme-docs',
  orgId: 'acme',
  source: 'https://***@git.example.com/acme/docs.git',
  docsPath: 'docs',
  baseUrl: 'https://docs.example.com',
  includeHidden: true,
  pollMinutes: 30,
  language: 'de',
  createdAt: '2026-11-21T00:00:00Z',
  updatedAt: '2026-11-21T00:00:00Z',
};

describe('console data layer: the domain form', () => {
  it('creates a domain with what was typed only, so the API applies its defaults to the rest', () => {
    assert.deepEqual(newDomainBody({ id: 'docs', source: 'https://git.example.com/docs.git', baseUrl: 'https://docs.example.com' }), {
      id: 'docs',
      source: 'https://git.example.com/docs.git',
      baseUrl: 'https://docs.example.com',
    });
    assert.deepEqual(
      newDomainBody({ id: 'docs', language: 'de', supportContact: 'help@example.com', pushSecretEnv: 'DOCS_SECRET', pollMinutes: '15', includeHidden: 'on', allowedOrigins: 'https://a.example\n\n https://b.example ' }),
      { id: 'docs', language: 'de', supportContact: 'help@example.com', pushSecretEnv: 'DOCS_SECRET', pollMinutes: 15, includeHidden: true, allowedOrigins: ['https://a.example', 'https://b.example'] },
    );
  });

  it('changes a domain by its whole form: empty clears, an unticked box is false, the source goes back as shown', () => {
    assert.deepEqual(domainPatch({ source: domain.source, baseUrl: domain.baseUrl, pollMinutes: '30', language: 'de' }, domain), {
      source: 'https://***@git.example.com/acme/docs.git',
      baseUrl: 'https://docs.example.com',
      branch: null,
      docsPath: '',
      includeHidden: false,
      allowedOrigins: null,
      supportContact: null,
      pushSecretEnv: null,
    });
  });

  it('sends the poll interval and the language only when they change', () => {
    assert.deepEqual(Object.entries(domainPatch({ pollMinutes: 'off', language: 'fr', includeHidden: 'on' }, domain)).filter(([k]) => ['pollMinutes', 'language', 'includeHidden'].includes(k)), [
      ['includeHidden', true],
      ['pollMinutes', null],
      ['language', 'fr'],
    ]);
    assert.equal(pollMinutesOf('soon'), 'soon', 'sent as typed, for the API to refuse beside the field');
  });
});
