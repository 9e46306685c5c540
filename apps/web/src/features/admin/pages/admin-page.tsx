import { useEffect, useRef, type ReactNode } from 'react';
import { Result } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { hasRole } from '@guji/shared';
import { Breadcrumbs } from '../../../components/breadcrumbs.tsx';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { useSession } from '../../account/queries.ts';
import { CatalogueManager } from '../components/catalogue.tsx';
import { Dashboard } from '../components/dashboard.tsx';
import { Users } from '../components/users.tsx';
import { SiteSettingsForm } from '../components/site-settings.tsx';
import { JobMonitor } from '../components/job-monitor.tsx';
import { Terminals } from '../components/reading-room.tsx';
import { Durations } from '../components/durations.tsx';
import { AuditLog } from '../components/audit-log.tsx';
import { SmsOutbox } from '../components/sms-outbox.tsx';
import { BulkImport } from '../components/bulk-import.tsx';
import { MarcImport } from '../components/marc-import.tsx';
import { ClassDictionary } from '../components/class-dictionary.tsx';
import { CorrectionQueue } from '../../ocr/index.ts';

/** The console's tabs, in order; catalogue staff see the catalogue's, administrators all. */
const TABS: Array<{ key: string; label: string; admin: boolean; render: () => ReactNode }> = [
  { key: 'dashboard', label: '统计概览', admin: true, render: () => <Dashboard /> },
  { key: 'catalogue', label: '编目管理', admin: false, render: () => <CatalogueManager /> },
  { key: 'import', label: '批量导入', admin: false, render: () => <BulkImport /> },
  { key: 'marc', label: 'MARC 导入导出', admin: false, render: () => <MarcImport /> },
  { key: 'classes', label: '分类字典', admin: false, render: () => <ClassDictionary /> },
  { key: 'corrections', label: '纠错审核', admin: false, render: () => <CorrectionQueue /> },
  { key: 'site', label: '站点设置', admin: true, render: () => <SiteSettingsForm /> },
  { key: 'users', label: '用户管理', admin: true, render: () => <Users /> },
  { key: 'jobs', label: '任务监控', admin: true, render: () => <JobMonitor /> },
  { key: 'terminals', label: '阅览室', admin: true, render: () => <Terminals /> },
  { key: 'durations', label: '借阅时长', admin: true, render: () => <Durations /> },
  { key: 'sms', label: '短信', admin: true, render: () => <SmsOutbox /> },
  { key: 'audit', label: '审计日志', admin: true, render: () => <AuditLog /> },
];

/**
 * /Admin: the administration console (loaded only when opened): the dashboard, catalogue management,
 * bulk import, dictionaries, readers' corrections (the queue of /OCRPage), site settings, users, the job monitor, reading-room terminals, the SMS
 * outbox and the audit log. Administrators see every tab, catalogue staff the catalogue's; the tab is
 * in the address.
 */
export function AdminPage() {
  useDocumentTitle('管理后台');
  const user = useSession().data?.user;
  const [params] = useSearchParams();
  const nav = useRef<HTMLElement>(null);
  const current = params.get('tab');
  // On a phone the row of sections scrolls: keep the open one in view.
  useEffect(() => {
    nav.current?.querySelector('a.active')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [current]);
  if (!user || !hasRole(user.roles, 'catalogAdmin')) {
    return <Result status="403" title="无权限访问" subTitle="管理后台仅向系统管理员和编目人员开放。" />;
  }
  const tabs = TABS.filter((t) => !t.admin || hasRole(user.roles, 'admin'));
  const tab = tabs.find((t) => t.key === params.get('tab')) ?? tabs[0]!;
  return (
    <div className="page admin-console">
      <Breadcrumbs second={{ title: '管理后台' }} />
      <h1 className="page-title">管理后台</h1>
      {/* Links, not a tab widget: on a phone they scroll sideways instead of folding into a menu. */}
      <nav aria-label="管理后台栏目" className="admin-tabs" ref={nav}>
        <ul>
          {tabs.map((t) => (
            <li key={t.key}>
              <Link
                to={`/Admin?tab=${t.key}`}
                aria-current={t.key === tab.key ? 'page' : undefined}
                className={t.key === tab.key ? 'active' : undefined}
              >
                {t.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <section aria-label={tab.label} className="admin-tab-content">
        {tab.render()}
      </section>
    </div>
  );
}
