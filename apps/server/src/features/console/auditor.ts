import type { AdminService } from './admin.service.ts';

/**
 * What a service that makes an administrative change needs of the audit log: writing one record,
 * passing the change's transaction so that the record stands or falls with the change.
 */
export type Auditor = Pick<AdminService, 'record'>;
