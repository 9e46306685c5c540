import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

/** E2E_PORT lets two checkouts (or two people on one machine) run the browser tests side by side. */
const port = Number(process.env.E2E_PORT ?? 3217);
/** Fixed, so the tests can read the SMS outbox and set captcha answers in the same database. */
export const E2E_DATA_DIR = path.join(os.tmpdir(), port === 3217 ? 'guji-e2e' : `guji-e2e-${port}`);
export const E2E_SECRET = 'e2e-session-secret';
/**
 * The tag of a browser test that needs the server to itself: it changes what every page shows (a site
 * setting, the prices), or it failed beside other tests for a reason not yet understood (each says which).
 */
export const ALONE = '@alone';
const ALONE_PATTERN = new RegExp(ALONE);
const dataDir = E2E_DATA_DIR;

/** Browser tests drive the built site in Debian's Chromium against a fresh SQLite database. */
export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  // Spec files run side by side in two workers (a file's tests in order); the tests tagged ALONE run
  // afterwards, one at a time (project alone).
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  projects: [
    { name: 'side-by-side', grepInvert: ALONE_PATTERN },
    { name: 'alone', grep: ALONE_PATTERN, dependencies: ['side-by-side'], workers: 1 },
  ],
  retries: 0,
  // Whole flows (upload, OCR, proofread, review, search) take about a minute on CI's 2 cores.
  timeout: 180_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: 'zh-CN',
    // A failing test leaves its screenshot. Traces cost a third of the run time on CI's 2 cores and CI keeps
    // no artefacts: to debug a failure here, run it again with `npx playwright test --trace on`.
    screenshot: 'only-on-failure',
    // As a person who asked their system for less motion: antd's dialogs open without their zoom (App.tsx).
    // A click made while a dialog was still zooming in was lost three times in loaded CI runs.
    contextOptions: { reducedMotion: 'reduce' },
    trace: 'off',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: `rm -rf ${dataDir} && node --import tsx apps/server/src/main.ts serve`,
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    // The first start typesets the demo library (about 20 s on 2 cores).
    timeout: 180_000,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SESSION_SECRET: E2E_SECRET,
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      // Two workers log in and register many readers a minute from one address.
      CAPTCHA_RATE_LIMIT_PER_MINUTE: '1000',
      SSO_SECRET: 'e2e-sso-secret',
      // Loopback is not the reading room here; tests that need it send X-Forwarded-For from its range.
      READING_ROOM_CIDRS: '10.77.0.0/16',
      // The catalogue tests import small books without text; OCR jobs would only add load here.
      OCR_ON_INGEST: 'false',
      TRUST_PROXY: '127.0.0.1',
      SITE_FILING_NUMBER: '京ICP备12345678号',
      SITE_FUNDING_NOTE: '国家古籍保护工程资助项目',
      // The print tests pay through the sandbox's mobile page (the default outside production).
      PAYMENT_PROVIDER: 'sandbox',
      // e2e/iiif-auth.spec.ts serves Mirador 4 from this second origin (IIIF Authorization, issue 18).
      IIIF_VIEWER_ORIGINS: `http://127.0.0.1:${port + 1}`,
    },
  },
});
