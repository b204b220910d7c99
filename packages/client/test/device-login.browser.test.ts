/**
 * The whole device authorization grant (RFC 8628) with the real pieces: `gatehouse-login login
 * --device` polls Gatehouse while a person in Chromium opens the verification URI, types the code
 * (lower case, no dash), signs in and allows. Time passes for the server when the CLI waits, so the
 * CLI honours the real interval without the test waiting for it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { EXIT_CODES, listenOnLoopback, runLoginCli } from '@gatehouse/client/node';
import { launchChromium } from './_chromium.js';
import { PASSWORD, startGatehouse, type Gatehouse } from './_gatehouse.js';
import { until } from '../../server/test/_until.js';

describe('gatehouse-login login --device, approved in Chromium', () => {
  let gatehouse: Gatehouse;
  let browser: Browser;
  let configDir: string;
  before(async () => {
    gatehouse = await startGatehouse();
    await gatehouse.addUser();
    await gatehouse.addClient({
      id: 'tv',
      name: 'Living Room TV',
      public: true,
      grantTypes: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'],
    });
    configDir = mkdtempSync(join(tmpdir(), 'gatehouse-device-'));
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await gatehouse?.close();
    rmSync(configDir, { recursive: true, force: true });
  });

  test('the CLI prints the code and URL and polls while the user types the code, signs in and allows; then its token works', async () => {
    const lines = { out: [] as string[], err: [] as string[] };
    const waits: number[] = [];
    const io = {
      out: (text: string) => lines.out.push(text),
      err: (text: string) => lines.err.push(text),
      env: { GATEHOUSE_CONFIG_DIR: configDir },
      sleep: async (ms: number) => {
        waits.push(ms);
        gatehouse.clock.advance(ms / 1000);
        // Real time between polls, for the browser's user to act: the poll's pace, not a wait.
        await sleep(50);
      },
    };
    const running = runLoginCli(['login', '--device', '--issuer', gatehouse.issuer, '--client-id', 'tv'], io);
    await until(
      () => lines.out.length > 0,
      () => `the CLI prints the URL: ${lines.err.join('\n')}`,
    );
    const userCode = /enter the code: ([A-Z]{4}-[A-Z]{4})/.exec(lines.err.join('\n'))?.[1];
    assert.ok(userCode, lines.err.join('\n'));
    assert.equal(lines.out[0], `${gatehouse.issuer}/device?user_code=${userCode}`, 'verification_uri_complete');

    const page = await (await browser.newContext()).newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content.Security.Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    await page.goto(`${gatehouse.issuer}/device`);
    assert.equal(await page.title(), 'Connect a device · Gatehouse');
    await page.getByLabel('Code').fill(userCode.replace('-', '').toLowerCase());
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Username').fill('alice');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForSelector('form[action="/device/consent"]');
    assert.equal(await page.textContent('.device-code .user-code'), userCode, 'the code to compare (§5.4)');
    const polledBefore = gatehouse.proxy.count((e) => e.form?.device_code !== undefined);
    assert.ok(polledBefore > 0, 'the CLI was polling while the user signed in');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForSelector('text=Device connected');
    assert.deepEqual(violations, [], 'the device pages break no rule of their CSP');

    assert.equal(await running, EXIT_CODES.ok, lines.err.join('\n'));
    assert.ok(
      waits.length > 0 && waits.every((ms) => ms >= 5000),
      `waits of at least the interval: ${waits.join(',')}`,
    );
    const token = { out: [] as string[], err: [] as string[] };
    const code = await runLoginCli(['token'], {
      out: (text) => token.out.push(text),
      err: (text) => token.err.push(text),
      env: { GATEHOUSE_CONFIG_DIR: configDir },
    });
    assert.equal(code, EXIT_CODES.ok, token.err.join('\n'));
    const answer = await fetch(`${gatehouse.apiBase}/contacts`, {
      headers: { authorization: `Bearer ${token.out[0]}` },
    });
    assert.equal(answer.status, 200);
  });

  test("gatehouse-login's landing page has the server pages' look in a browser: its inline style is allowed by the CSP hash", async () => {
    const listener = await listenOnLoopback();
    const page = await (await browser.newContext()).newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content.Security.Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    try {
      const callback = listener.waitForCallback(() => true, 10_000);
      const landed = page.goto(`${listener.redirectUri}?state=s&code=c`);
      (await callback).answer({ status: 403, ok: false, title: 'Sign-in refused', text: 'Access was denied.' });
      await landed;
      assert.equal(await page.textContent('h1'), 'Sign-in refused');
      const card = await page.evaluate(() => getComputedStyle(document.querySelector('.card') as Element).borderRadius);
      assert.equal(card, '16px', 'the style applies');
      assert.deepEqual(violations, []);
    } finally {
      await listener.close();
    }
  });
});
