import { HealthResponse, ProbeResponse, PublicSite, SiteSettings, UpdateSiteRequest } from '../api/site.ts';
import { contract } from '../contract.ts';

/** Site texts for the footer and the registration form variant. */
export const siteApi = {
  get: contract({
    method: 'GET',
    path: '/api/site',
    summary: 'Site name, footer texts and registration switches',
    tags: ['site'],
    response: PublicSite,
  }),
  update: contract({
    method: 'PUT',
    path: '/api/admin/site',
    summary: 'Change site texts and switches (administrators)',
    tags: ['admin'],
    body: UpdateSiteRequest,
    response: SiteSettings,
  }),
};

/** The server's health: the database, the job worker, the OCR engine and the payment provider. */
export const healthApi = {
  check: contract({
    method: 'GET',
    path: '/api/health',
    summary: 'Health of the database and the job worker',
    tags: ['system'],
    response: HealthResponse,
  }),
  live: contract({
    method: 'GET',
    path: '/api/health/live',
    summary: 'Liveness: 200 while the process answers at all (restart it when this fails)',
    tags: ['system'],
    response: ProbeResponse,
  }),
  ready: contract({
    method: 'GET',
    path: '/api/health/ready',
    summary: 'Readiness: 200 when the process can serve (database reachable, not shutting down), else 503',
    tags: ['system'],
    response: ProbeResponse,
  }),
};
