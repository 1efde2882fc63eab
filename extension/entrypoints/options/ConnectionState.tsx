import { Banner } from '../../components/Banner';
import type { Connection } from '../../lib/connection';

/** Where the extension stands: connected as X, needs reconnect, or not connected. */
export function ConnectionState({ connection }: { connection: Connection | null }) {
  if (!connection) {
    return (
      <Banner tone="info">
        <p>Not connected. Enter your team's proxy URL and the member token your admin gave you.</p>
      </Banner>
    );
  }
  if (connection.needsReconnect) {
    return (
      <Banner tone="warning">
        <p>
          <strong>Needs reconnect:</strong> the proxy at {connection.proxyUrl} no longer accepts the stored token. Paste a new member token and
          click Connect. Nothing you added is lost.
        </p>
      </Banner>
    );
  }
  return (
    <Banner tone="success">
      <p>
        Connected as <strong>{connection.memberName ?? 'a member'}</strong> to {connection.proxyUrl}.
      </p>
    </Banner>
  );
}
