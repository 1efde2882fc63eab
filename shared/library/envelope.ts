import { API_REGION, API_SERVICE, API_VERSION, type Action } from './constants';

/** The `ResponseMetadata` every `/api/v3` response carries. */
export interface ResponseMetadata {
  RequestId: string;
  Action: string;
  Version: string;
  Service: string;
  Region: string;
  Error?: { Code: string; Message: string };
}

export interface SuccessEnvelope<R> {
  ResponseMetadata: ResponseMetadata;
  Result: R;
}

export interface FailureEnvelope {
  ResponseMetadata: ResponseMetadata & { Error: { Code: string; Message: string } };
}

export type Envelope<R> = SuccessEnvelope<R> | FailureEnvelope;

const metadata = (requestId: string, action: Action | string): ResponseMetadata => ({
  RequestId: requestId,
  Action: action,
  Version: API_VERSION,
  Service: API_SERVICE,
  Region: API_REGION,
});

export const successEnvelope = <R>(requestId: string, action: Action | string, result: R): SuccessEnvelope<R> => ({
  ResponseMetadata: metadata(requestId, action),
  Result: result,
});

export const failureEnvelope = (requestId: string, action: Action | string, code: string, message: string): FailureEnvelope => ({
  ResponseMetadata: { ...metadata(requestId, action), Error: { Code: code, Message: message } },
});

/** Callers must check `ResponseMetadata.Error` as well as the HTTP status: failures may carry 200. */
export const isFailure = <R>(envelope: Envelope<R>): envelope is FailureEnvelope =>
  Boolean(envelope.ResponseMetadata?.Error);
