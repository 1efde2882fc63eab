/**
 * How an asset record's media reaches the library (the record's optional `capture` field). Types
 * only, importing nothing from the extension (no import cycles). A plain field of the record: no
 * index, no schema change; records made before it simply have none.
 */

/**
 * Why the bytes were uploaded rather than the address handed to the service:
 * - `data`: embedded in the page (a `data:` address);
 * - `blob`: made by the page (a `blob:` address, only the page can read it);
 * - `http`: plain `http://`, which the proxy does not accept (its `media.allowHttp`);
 * - `signin`: the site answers only with the page's cookies (a check without them was refused);
 * - `file`: a file from the member's computer (dropped or picked);
 * - `screenshot`: a capture of the visible tab or a region of it;
 * - `frame`: a still of a playing video.
 */
export type UploadReason = 'data' | 'blob' | 'http' | 'signin' | 'file' | 'screenshot' | 'frame';

/**
 * Where an upload stands: `reading` (the page is reading the bytes), `waiting` (read and checked,
 * kept in the extension's own database until sent), `uploading`, `uploaded` (the proxy answered
 * its signed address, which is the record's `url` from then on).
 */
export type UploadStage = 'reading' | 'waiting' | 'uploading' | 'uploaded';

export type CaptureState =
  /** The service downloads the page's address itself (as before uploads existed). */
  | { how: 'link' }
  | {
      how: 'upload';
      reason: UploadReason;
      stage: UploadStage;
      /** The page's address (for `data:`, a short stand-in naming its type and SHA-256): duplicates are found by it. */
      source: string;
      /** Key of the bytes in the upload store (storage/upload-bytes) while they wait to be sent. */
      bytesKey: string;
      /** Bytes read so far (while `reading`). */
      read?: number;
      /** Bytes sent so far (while `uploading`, where the browser counts them: uploads/upload-transport). */
      sent?: number;
      /** Size in bytes, once known. */
      size?: number;
      contentType?: string;
      /** The proxy's upload id and the expiry of its signed address (Unix seconds), once uploaded. */
      uploadId?: string;
      expiresAt?: number;
    };
