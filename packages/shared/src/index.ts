export * from './validation.ts';
export * from './messages.ts';
export * from './permissions.ts';
export * from './api/common.ts';
export * from './api/auth.ts';
export * from './api/site.ts';
export * from './api/catalog.ts';
