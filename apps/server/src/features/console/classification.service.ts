import { badRequest, notFound } from '../../errors.ts';
import type { Transact } from '../../db/query.ts';
import type { ClassificationRepository } from '../catalog/classification.repository.ts';
import type { AdminService } from './admin.service.ts';

/**
 * The classification dictionary in the console (spec §3: name and value). A code extends its parent's
 * by one dotted level (JING → JING.SISHU) and never changes once given, since books refer to it; each
 * change is one transaction with its audit record.
 */
export class ClassificationService {
  constructor(
    private readonly classes: ClassificationRepository,
    private readonly admin: AdminService,
    private readonly transact: Transact,
  ) {}

  async create(
    actorId: number,
    entry: { parentId: number | null; code: string; name: string },
  ): Promise<void> {
    const { parentId, code, name } = entry;
    await this.transact(async (tx) => {
      if (parentId !== null) {
        const parent = await this.classes.find(parentId, tx);
        if (!parent) throw notFound('上级分类不存在', 'NOT_FOUND');
        if (
          !code.startsWith(`${parent.code}.`) ||
          code.split('.').length !== parent.code.split('.').length + 1
        )
          throw badRequest('CLASS_CODE', `分类代码须为“${parent.code}.”加一级，如 ${parent.code}.NEW`);
      } else if (code.includes('.')) throw badRequest('CLASS_CODE', '顶级分类代码不能含“.”');
      if (await this.classes.findByCode(code, tx)) throw badRequest('CLASS_CODE', '分类代码已存在');
      await this.classes.append({ code, name, parentId }, tx);
      await this.admin.record(actorId, 'class.create', `class:${code}`, null, { code, name }, tx);
    });
  }

  async rename(actorId: number, id: number, name: string): Promise<void> {
    await this.transact(async (tx) => {
      const row = await this.classes.find(id, tx);
      if (!row) throw notFound('分类不存在', 'NOT_FOUND');
      await this.classes.rename(row.id, name, tx);
      await this.admin.record(actorId, 'class.rename', `class:${row.code}`, { name: row.name }, { name }, tx);
    });
  }

  /** Refused while a book is filed under the classification or one of its sub-classes. */
  async remove(actorId: number, id: number): Promise<void> {
    await this.transact(async (tx) => {
      const row = await this.classes.find(id, tx);
      if (!row) throw notFound('分类不存在', 'NOT_FOUND');
      if (await this.classes.inUse(row.code, tx))
        throw badRequest('CLASS_USED', '该分类（或其下级分类）仍有古籍，不能删除');
      await this.classes.remove(row.id, tx);
      await this.admin.record(
        actorId,
        'class.delete',
        `class:${row.code}`,
        { code: row.code, name: row.name },
        null,
        tx,
      );
    });
  }
}
