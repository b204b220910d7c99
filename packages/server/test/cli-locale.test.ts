/**
 * `gatehouse users add|update --locale TAG`: the user's OIDC `locale` claim (OIDC Core §5.1), a BCP 47
 * tag stored in its canonical form, which the pages of the signed-in user then speak
 * (docs/operating.md, Languages), on both dialects.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hiddenField, PageBrowser } from './_authorize.js';
import { runCliCaptured, type CliRun } from './_cli.js';
import { DIALECTS } from './_dialects.js';
import { startTestServer, type TestServer } from './_server.js';

for (const dialect of DIALECTS)
  describe(`gatehouse users --locale (${dialect})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ dialect });
    });
    after(() => server.close());

    const cli = (...argv: string[]): Promise<CliRun> =>
      runCliCaptured(argv, { DATABASE_URL: server.databaseUrl, ISSUER: server.context.issuer });
    async function cliJson(...argv: string[]): Promise<Record<string, unknown>> {
      const run = await cli(...argv);
      assert.equal(run.code, 0, `exit code of ${argv.join(' ')}: ${run.err}`);
      return JSON.parse(run.out) as Record<string, unknown>;
    }

    /** The language of the account page of `username`, signed in with `password`, for a browser asking for French. */
    async function accountLanguage(username: string, password: string): Promise<string | undefined> {
      const browser = new PageBrowser(server);
      browser.extraHeaders = { 'accept-language': 'fr' };
      const form = await browser.get('/account');
      await browser.post('/account/login', { csrf_token: hiddenField(form.html, 'csrf_token'), username, password });
      return /<html lang="([^"]*)"/.exec((await browser.get('/account')).html)?.[1];
    }

    it('users add --locale stores the canonical tag (pt_br is pt-BR), and the pages of that user speak it before Accept-Language', async () => {
      const added = await cliJson('users', 'add', '--username', 'bruna', '--locale', 'pt_br');
      assert.equal(added.locale, 'pt-BR');
      assert.equal(await accountLanguage('bruna', added.password as string), 'pt-BR');
      const listed = (await cliJson('users', 'list')) as unknown as { username: string; locale?: string }[];
      assert.equal(listed.find((u) => u.username === 'bruna')?.locale, 'pt-BR');
    });

    it('users update --locale changes it, an empty --locale removes it (the pages then follow Accept-Language)', async () => {
      const added = await cliJson('users', 'add', '--username', 'kenji');
      const password = added.password as string;
      assert.equal(added.locale, undefined);
      assert.equal(await accountLanguage('kenji', password), 'fr');
      const updated = await cliJson('users', 'update', 'kenji', '--locale', 'JA');
      assert.equal(updated.locale, 'ja');
      assert.equal(await accountLanguage('kenji', password), 'ja');
      const removed = await cliJson('users', 'update', 'kenji', '--locale', '');
      assert.equal(removed.locale, undefined);
      assert.equal(await accountLanguage('kenji', password), 'fr');
    });

    it('a tag that is not BCP 47 is refused in one line (exit 1), and nothing is changed', async () => {
      await cliJson('users', 'add', '--username', 'lea', '--locale', 'de');
      const run = await cli('users', 'update', 'lea', '--locale', 'not a tag!');
      assert.equal(run.code, 1, run.err);
      assert.match(run.err, /'not a tag!' is not a BCP 47 language tag \(such as de, pt-BR or zh-CN\)/);
      assert.equal(run.err.trim().split('\n').length, 1, run.err);
      const listed = (await cliJson('users', 'list')) as unknown as { username: string; locale?: string }[];
      assert.equal(listed.find((u) => u.username === 'lea')?.locale, 'de');
    });
  });
