/** Code the proxy, the sandbox and the extension share: the service's types, schemas and rules. */
export * from './limits';
export * from './validation';
export * from './media-url';
export * from './request-body';
export * from './bytes';
export * from './asset-ref';
export * from './library/constants';
export * from './library/resources';
export * from './library/readiness';
export * from './library/envelope';
export * from './library/results';
export * from './library/schemas';
export * from './video/schemas';
export * from './video/task';
export * from './video/references';
export * from './video/check-create';
export * from './catalog/models';
