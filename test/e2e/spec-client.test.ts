/**
 * The independent spec client (scripts/spec-client.ts, written only from the service's published interface)
 * against a freshly started sandbox: the typical flow end to end, plus the envelope checks the
 * client relies on.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runTypicalFlow, ServiceError, signedCall, videoCall } from '../../scripts/spec-client';
import { startMediaServer, type MediaServer } from '../support/media-server';
import { startSandbox, type Sandbox } from '../support/sandbox';

const DEV = { accessKeyId: 'AKSANDBOXDEV', secretAccessKey: 'sandbox-dev-secret-key' };
const OTHER = { accessKeyId: 'AKSANDBOXOTHER', secretAccessKey: 'sandbox-other-secret-key' };

let media: MediaServer;
let sandbox: Sandbox;

beforeAll(async () => {
  media = await startMediaServer();
  sandbox = await startSandbox({ SANDBOX_ALLOW_HTTP: 'on', SANDBOX_ASSET_SECONDS: '1', SANDBOX_VIDEO_SECONDS: '4' });
});

afterAll(async () => {
  await sandbox?.stop();
  await media?.close();
});

test('the typical flow: group, asset Active, video task completed, MP4 downloaded', async () => {
  const lines: string[] = [];
  const summary = await runTypicalFlow({
    libraryBase: sandbox.url,
    videoBase: sandbox.url,
    ...DEV,
    apiKey: 'sk-sandbox-dev',
    imageUrl: `${media.url}/media/sample.png`,
    log: (line) => lines.push(line),
    timeoutMs: 60_000,
  });
  expect(summary.groupId).toMatch(/\S/);
  expect(summary.assetStatus).toBe('Active');
  expect(summary.taskStatus).toBe('completed');
  expect(summary.videoType).toMatch(/^video\/mp4/);
  expect(summary.videoBytes).toBeGreaterThan(1000);
  expect(lines.some((l) => /GetAsset .*: Processing/.test(l))).toBe(true); // polled, not assumed
  expect(lines.some((l) => /in_progress/.test(l))).toBe(true);

  // The ids belong to the dev account: the other account is refused.
  await expect(signedCall(sandbox.url, OTHER, 'GetAsset', { Id: summary.assetId })).rejects.toMatchObject({ code: 'AccessDenied' });
  // Re-querying the task does not create one: the same id, still completed.
  const again = await videoCall<{ id: string; status: string }>(sandbox.url, 'sk-sandbox-dev', 'GET', `/v1/video/generations/${summary.taskId}`);
  expect(again).toMatchObject({ id: summary.taskId, status: 'completed' });
});

test('the client surfaces ResponseMetadata.Error and HTTP failures', async () => {
  await expect(signedCall(sandbox.url, { ...DEV, secretAccessKey: 'wrong-secret' }, 'ListAssetGroups', {})).rejects.toMatchObject({ status: 401, code: 'SignatureDoesNotMatch' });
  const invalid = signedCall(sandbox.url, DEV, 'CreateAssetGroup', { Name: '' });
  await expect(invalid).rejects.toBeInstanceOf(ServiceError);
  await expect(invalid).rejects.toMatchObject({ code: 'ValidationError' });
  await expect(videoCall(sandbox.url, 'sk-not-a-key', 'GET', '/v1/models')).rejects.toMatchObject({ status: 401 });
});

test('an asset whose URL cannot be downloaded ends Failed, and the flow stops with its reason', async () => {
  await expect(
    runTypicalFlow({ libraryBase: sandbox.url, videoBase: sandbox.url, ...DEV, apiKey: 'sk-sandbox-dev', imageUrl: `${media.url}/status/404`, timeoutMs: 30_000 }),
  ).rejects.toThrow(/Failed: ResourceDownloadFailed/);
});
