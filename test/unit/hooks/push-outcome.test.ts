import assert from 'node:assert/strict';
import { eventOutcome, pushOutcome } from '../../../api/hooks/push-outcome.js';

const ZEROS = '0'.repeat(40);
const COMMIT = 'a'.repeat(40);

describe('what a push asks of a domain', () => {
  describe('the branch a ref names', () => {
    it("indexes a push to refs/heads/<the domain's branch>, or to its bare name", () => {
      assert.deepEqual(pushOutcome({ ref: 'refs/heads/main', after: COMMIT }, 'main'), { kind: 'index', branch: 'main' });
      assert.deepEqual(pushOutcome({ ref: 'main' }, 'main'), { kind: 'index', branch: 'main' });
      assert.deepEqual(pushOutcome({ ref: 'refs/heads/release/2.x' }, 'release/2.x'), { kind: 'index', branch: 'release/2.x' }, 'a branch with slashes');
    });

    it('ignores another branch, naming the one the domain indexes', () => {
      const outcome = pushOutcome({ ref: 'refs/heads/feature/draft' }, 'main');
      assert.equal(outcome.kind, 'ignored');
      assert.equal(outcome.branch, 'feature/draft');
      assert.match(outcome.reason, /indexes the branch 'main'/);
      assert.equal(pushOutcome({ ref: 'refs/heads/Main' }, 'main').kind, 'ignored', 'branch names are case-sensitive');
      assert.equal(pushOutcome({ ref: 'refs/heads/main-old' }, 'main').kind, 'ignored', 'not a prefix match');
    });

    it('ignores tags and other refs, even one that ends like the branch', () => {
      for (const ref of ['refs/tags/v1.0.0', 'refs/tags/main', 'refs/notes/commits', 'refs/remotes/origin/main', 'refs/heads/', '']) {
        const outcome = pushOutcome({ ref }, 'main');
        assert.equal(outcome.kind, 'ignored', ref);
        assert.match(outcome.kind === 'ignored' ? outcome.reason : '', /is not a branch/, ref);
        assert.equal(outcome.kind === 'ignored' ? outcome.branch : 'x', undefined, ref);
      }
    });
  });

  describe('a push that deletes the branch', () => {
    it('is ignored when GitHub says deleted, or the ref now points at all zeros (GitLab)', () => {
      for (const push of [
        { ref: 'refs/heads/main', deleted: true, after: ZEROS },
        { ref: 'refs/heads/main', deleted: true },
        { ref: 'refs/heads/main', after: ZEROS },
        { ref: 'refs/heads/main', deleted: null, after: ZEROS },
      ]) {
        assert.deepEqual(pushOutcome(push, 'main'), { kind: 'ignored', branch: 'main', reason: 'the push deleted the branch' }, JSON.stringify(push));
      }
    });

    it('is not read into a push that moved the branch', () => {
      for (const push of [
        { ref: 'refs/heads/main', deleted: false, after: COMMIT },
        { ref: 'refs/heads/main', deleted: null, after: null },
        { ref: 'refs/heads/main', after: `${'0'.repeat(39)}1` },
        { ref: 'refs/heads/main', after: '' },
      ]) {
        assert.deepEqual(pushOutcome(push, 'main'), { kind: 'index', branch: 'main' }, JSON.stringify(push));
      }
    });
  });

  describe('a domain that names no branch', () => {
    it("indexes the repository's default branch as GitHub (repository) or GitLab (project) names it", () => {
      assert.deepEqual(pushOutcome({ ref: 'refs/heads/trunk', repository: { default_branch: 'trunk' } }, undefined), { kind: 'index', branch: 'trunk' });
      assert.deepEqual(pushOutcome({ ref: 'refs/heads/trunk', project: { default_branch: 'trunk' } }, undefined), { kind: 'index', branch: 'trunk' });
      assert.deepEqual(pushOutcome({ ref: 'refs/heads/trunk', repository: null, project: { default_branch: 'trunk' } }, undefined), { kind: 'index', branch: 'trunk' });
      assert.deepEqual(pushOutcome({ ref: 'refs/heads/trunk', repository: { default_branch: null }, project: { default_branch: 'trunk' } }, undefined), { kind: 'index', branch: 'trunk' });
      const other = pushOutcome({ ref: 'refs/heads/draft', repository: { default_branch: 'trunk' } }, undefined);
      assert.equal(other.kind, 'ignored');
      assert.match(other.kind === 'ignored' ? other.reason : '', /indexes the branch 'trunk'/);
    });

    it("prefers the domain's own branch over the default the push names", () => {
      assert.equal(pushOutcome({ ref: 'refs/heads/trunk', repository: { default_branch: 'trunk' } }, 'docs').kind, 'ignored');
      assert.deepEqual(pushOutcome({ ref: 'refs/heads/docs', repository: { default_branch: 'trunk' } }, 'docs'), { kind: 'index', branch: 'docs' });
    });

    it('ignores a plain push that does not say which branch is the default, saying to set the branch', () => {
      for (const push of [{ ref: 'main' }, { ref: 'refs/heads/main', repository: {} }, { ref: 'refs/heads/main', repository: { default_branch: null }, project: null }]) {
        const outcome = pushOutcome(push, undefined);
        assert.equal(outcome.kind, 'ignored', JSON.stringify(push));
        assert.match(outcome.kind === 'ignored' ? outcome.reason : '', /set the domain's branch/);
      }
    });

    it('still ignores a deleted default branch', () => {
      assert.deepEqual(pushOutcome({ ref: 'refs/heads/trunk', after: ZEROS, project: { default_branch: 'trunk' } }, undefined), { kind: 'ignored', branch: 'trunk', reason: 'the push deleted the branch' });
    });
  });

  describe('the event', () => {
    it("answers GitHub's ping, and leaves pushes to be read", () => {
      assert.deepEqual(eventOutcome({ form: 'github', event: 'ping' }), { kind: 'pong' });
      assert.equal(eventOutcome({ form: 'github', event: 'push' }), undefined);
      assert.equal(eventOutcome({ form: 'gitlab', event: 'Push Hook' }), undefined);
      assert.equal(eventOutcome({ form: 'bearer', event: 'push' }), undefined);
    });

    it('ignores any other event, naming it (cut short)', () => {
      assert.deepEqual(eventOutcome({ form: 'github', event: 'issues' }), { kind: 'ignored', reason: "the event 'issues' is not a push" });
      assert.equal(eventOutcome({ form: 'gitlab', event: 'Tag Push Hook' })?.kind, 'ignored');
      assert.equal(eventOutcome({ form: 'gitlab', event: 'ping' })?.kind, 'ignored', 'only GitHub pings');
      assert.equal(eventOutcome({ form: 'gitlab', event: 'push' })?.kind, 'ignored', "GitLab's push event is 'Push Hook'");
      const long = eventOutcome({ form: 'github', event: 'x'.repeat(5000) });
      assert.ok(long?.kind === 'ignored' && long.reason.length < 200, 'a long event name is cut');
    });
  });
});
