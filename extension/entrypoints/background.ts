// The extension's service worker. Capture and polling arrive with the capture issue;
// for now it only announces itself so that the service worker is registered.
export default defineBackground(() => {
  browser.runtime.onInstalled.addListener(({ reason }) => {
    console.info(`Arkbridge installed (${reason})`);
  });
});
