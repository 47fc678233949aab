import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { pushDeliveryOf } from '../../../api/hooks/push-delivery.js';
import { hubSignatureMatches, tokenMatches } from '../../../api/hooks/push-signature.js';

const SECRET = 'push-secret-for-the-test';
const BODY = '{"ref":"refs/heads/main","after":"2222"}';
const hexOf = (body: string, secret = SECRET) => createHmac('sha256', secret).update(body, 'utf8').digest('hex');

describe('push hook signatures', () => {
  describe("GitHub's X-Hub-Signature-256", () => {
    it('holds for the HMAC-SHA256 of the body as sent, keyed with the secret, in either case of hex', () => {
      assert.equal(hubSignatureMatches(SECRET, BODY, `sha256=${hexOf(BODY)}`), true);
      assert.equal(hubSignatureMatches(SECRET, BODY, `sha256=${hexOf(BODY).toUpperCase()}`), true);
      assert.equal(hubSignatureMatches(SECRET, BODY, ` sha256=${hexOf(BODY)}\t`), true, 'surrounding blanks are not part of it');
      const unicode = '{"ref":"main","message":"Résumé ✓"}';
      assert.equal(hubSignatureMatches(SECRET, unicode, `sha256=${hexOf(unicode)}`), true, 'the body is signed as UTF-8 bytes');
    });

    it('fails for another secret, another body, or the same body reformatted', () => {
      assert.equal(hubSignatureMatches(SECRET, BODY, `sha256=${hexOf(BODY, 'not-the-secret')}`), false);
      assert.equal(hubSignatureMatches(SECRET, BODY, `sha256=${hexOf('{"ref":"refs/heads/other"}')}`), false);
      assert.equal(hubSignatureMatches(SECRET, JSON.stringify(JSON.parse(BODY), null, 2), `sha256=${hexOf(BODY)}`), false);
    });

    it('fails, without throwing, for a malformed header or a digest of the wrong length', () => {
      const hex = hexOf(BODY);
      for (const header of [
        '',
        hex, // no algorithm
        `sha1=${createHmac('sha1', SECRET).update(BODY).digest('hex')}`, // GitHub's older header
        `sha256:${hex}`,
        'sha256=zz',
        `sha256=${hex.slice(0, 63)}`, // one digit short
        `sha256=${hex}0`, // one digit long
        `sha256=${hex.slice(0, 62)}`, // a byte short: would make timingSafeEqual throw if it got there
        `sha256=${hex}${hex}`,
        `sha256=${hex.slice(0, 63)}g`,
        `sha256=${hex}, sha256=${hex}`, // a header sent twice, as Node joins it
      ]) {
        assert.equal(hubSignatureMatches(SECRET, BODY, header), false, JSON.stringify(header));
      }
    });
  });

  describe('a token sent as it is (GitLab, bearer)', () => {
    it('holds only for the secret itself, whatever the lengths', () => {
      assert.equal(tokenMatches(SECRET, SECRET), true);
      assert.equal(tokenMatches(SECRET, 'not-the-secret'), false);
      assert.equal(tokenMatches(SECRET, ''), false);
      assert.equal(tokenMatches(SECRET, `${SECRET}x`), false, 'longer');
      assert.equal(tokenMatches(SECRET, SECRET.slice(0, -1)), false, 'shorter');
      assert.equal(tokenMatches(SECRET, SECRET.toUpperCase()), false, 'case counts');
    });
  });

  describe('the form of a delivery, from its headers', () => {
    it('is GitHub for a hub signature or event, and proves nothing without the signature', () => {
      const signed = pushDeliveryOf({ 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${hexOf(BODY)}` });
      assert.equal(signed?.form, 'github');
      assert.equal(signed.event, 'push');
      assert.equal(signed.signedWith(SECRET, BODY), true);
      assert.equal(signed.signedWith('not-the-secret', BODY), false);
      assert.equal(signed.signedWith(SECRET, `${BODY} `), false);

      const unsigned = pushDeliveryOf({ 'x-github-event': 'push', authorization: `Bearer ${SECRET}` });
      assert.equal(unsigned?.form, 'github', 'a bearer does not stand in for a missing signature');
      assert.equal(unsigned.signedWith(SECRET, BODY), false);
      assert.equal(pushDeliveryOf({ 'x-hub-signature-256': `sha256=${hexOf(BODY)}` })?.event, 'push', 'a signature without an event is a push');
    });

    it('is GitLab for its token or event, and proves nothing without the token', () => {
      const gitlab = pushDeliveryOf({ 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': SECRET });
      assert.equal(gitlab?.form, 'gitlab');
      assert.equal(gitlab.event, 'Push Hook');
      assert.equal(gitlab.signedWith(SECRET, BODY), true);
      assert.equal(pushDeliveryOf({ 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': 'nope' })?.signedWith(SECRET, BODY), false);
      assert.equal(pushDeliveryOf({ 'x-gitlab-event': 'Push Hook' })?.signedWith(SECRET, BODY), false);
    });

    it('is a bearer push for `Authorization: Bearer <secret>`, and none for anything else', () => {
      const bearer = pushDeliveryOf({ authorization: `bearer ${SECRET}` });
      assert.equal(bearer?.form, 'bearer');
      assert.equal(bearer.event, 'push');
      assert.equal(bearer.signedWith(SECRET, BODY), true);
      assert.equal(pushDeliveryOf({ authorization: 'Bearer not-the-secret' })?.signedWith(SECRET, BODY), false);
      for (const authorization of [undefined, '', 'Bearer', 'Bearer ', `Basic ${SECRET}`, `Bearer ${SECRET} extra`]) {
        assert.equal(pushDeliveryOf(authorization === undefined ? {} : { authorization }), undefined, JSON.stringify(authorization));
      }
    });
  });
});
