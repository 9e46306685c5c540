-- catalog.hasBooks
select "id"
  from "books"
  limit ?;

-- catalog.adminBooks
select *
  from "books"
  where "is_lonely" = ?
  and ("owner_id" is null
  or "audit_status" = ?)
  and ("title_search" like ? escape '\'
  or "call_number" like ? escape '\'
  or "call_number" like ? escape '\')
  and "is_visible" = ?
  order by "id" desc
  limit ?
  offset ?;
select count(*) as "n"
  from "books"
  where "is_lonely" = ?
  and ("owner_id" is null
  or "audit_status" = ?)
  and ("title_search" like ? escape '\'
  or "call_number" like ? escape '\'
  or "call_number" like ? escape '\')
  and "is_visible" = ?;

-- catalog.volumeAndPageCounts
select "volumes"."book_id", count(distinct "volumes"."id") as "volumes", count("pages"."id") as "pages"
  from "volumes"
  left join "pages" on "pages"."volume_id" = "volumes"."id"
  where "volumes"."book_id" in (?)
  group by "volumes"."book_id";

-- catalog.allBookIds
select "id"
  from "books"
  order by "id";

-- catalog.briefBooks
select "id", "title", "author", "call_number"
  from "books"
  where "id" in (?);

-- catalog.findBook
select *
  from "books"
  where "id" = ?;

-- catalog.findBookBySourceKey
select *
  from "books"
  where "source_key" = ?;

-- catalog.hasReaderData
select count(*) as "n"
  from "collections"
  where "book_id" = ?;
select count(*) as "n"
  from "notes"
  where "book_id" = ?;
select count(*) as "n"
  from "comments"
  where "book_id" = ?;
select count(*) as "n"
  from "reservations"
  where "book_id" = ?;
select count(*) as "n"
  from "print_items"
  where "book_id" = ?;

-- catalog.searchBooks
select *
  from "books"
  where "is_visible" = ?
  and "audit_status" = ?
  and id in (select rowid
  from books_fts
  where books_fts match ?)
  and ("class_code" = ?
  or ("class_code" > ?
  and "class_code" < ?))
  order by "id" asc
  limit ?
  offset ?;
select count(*) as "n"
  from "books"
  where "is_visible" = ?
  and "audit_status" = ?
  and id in (select rowid
  from books_fts
  where books_fts match ?)
  and ("class_code" = ?
  or ("class_code" > ?
  and "class_code" < ?));

-- catalog.advancedSearch
select *
  from "books"
  where "is_visible" = ?
  and "audit_status" = ?
  and ("title_search" like ? escape '\'
  or lower("author") like ? escape '\')
  order by "id" asc
  limit ?
  offset ?;
select count(*) as "n"
  from "books"
  where "is_visible" = ?
  and "audit_status" = ?
  and ("title_search" like ? escape '\'
  or lower("author") like ? escape '\');

-- catalog.hotBooks
select "books".*
  from "books"
  where "is_visible" = ?
  and "audit_status" = ?
  and exists (select "volumes"."id"
  from "volumes"
  where "volumes"."book_id" = "books"."id")
  order by "view_count" desc, "id" asc
  limit ?
  offset ?;
select count(*) as "n"
  from "books"
  where "is_visible" = ?
  and "audit_status" = ?
  and exists (select "volumes"."id"
  from "volumes"
  where "volumes"."book_id" = "books"."id");

-- catalog.publicBooks
select *
  from "books"
  where "is_visible" = ?
  and "audit_status" = ?
  and "is_open" = ?
  order by "id";
select "volumes"."id", "volumes"."book_id"
  from "volumes"
  inner join "books" on "books"."id" = "volumes"."book_id"
  where "books"."is_visible" = ?
  and "books"."audit_status" = ?
  and "books"."is_open" = ?
  order by "volumes"."sort", "volumes"."id";

-- catalog.hasActivePrivilege
select "id"
  from "book_privileges"
  where "user_id" = ?
  and "book_id" = ?
  and "starts_at" <= ?
  and "expires_at" > ?;
select "id"
  from "users"
  where "id" = ?
  and "reader_flag" = ?
  and ("flag_expires_at" is null
  or "flag_expires_at" > ?);

-- catalog.countFootprints
select count(*) as "n"
  from "footprints"
  where "user_id" = ?;

-- catalog.listVolumes
select "volumes".*, (select count(*) as "n"
  from "pages"
  where "pages"."volume_id" = "volumes"."id") as "image_count"
  from "volumes"
  where "book_id" = ?
  order by "sort", "id";

-- catalog.countVolumes
select count(*) as "n"
  from "volumes"
  where "book_id" = ?;

-- catalog.findVolume
select *
  from "volumes"
  where "id" = ?;

-- catalog.pagesWithText
select "id", "book_id", "volume_id", "ocr_json"
  from "pages"
  where "book_id" = ?
  and "ocr_json" is not null
  order by "id";

-- catalog.allMasterKeys
select "master_key"
  from "pages";

-- catalog.pagesWithPyramids
select "id", "pyramid_key"
  from "pages"
  where "pyramid_key" is not null
  and "id" > ?
  order by "id"
  limit ?;

-- catalog.pyramidInUse
select "id"
  from "pages"
  where "pyramid_key" = ?
  limit ?;

-- catalog.pageFiles
select "id", "master_key", "pyramid_key"
  from "pages"
  where "volume_id" = ?;

-- catalog.lastPageSeq
update "volumes"
  set "name" = "name"
  where "id" = ?;
select max("seq") as "seq"
  from "pages"
  where "volume_id" = ?;

-- catalog.listPages
select *
  from "pages"
  where "volume_id" = ?
  order by "seq";

-- catalog.findPage
select *
  from "pages"
  where "id" = ?;

-- catalog.findImagePage
select "id", "volume_id", "book_id", "seq", "name", "width", "height", "master_key", "pyramid_key", "status", "created_at", "file_bytes"
  from "pages"
  where "id" = ?;

-- catalog.coverPage
select "pages".*
  from "pages"
  inner join "volumes" on "volumes"."id" = "pages"."volume_id"
  where "pages"."book_id" = ?
  order by "volumes"."sort", "volumes"."id", "pages"."seq"
  limit ?;

-- catalog.coverPageIds
select "pages"."book_id", "pages"."id", "volumes"."sort", "volumes"."id" as "volume_id", "pages"."seq"
  from "pages"
  inner join "volumes" on "volumes"."id" = "pages"."volume_id"
  where "pages"."book_id" in (?)
  and "pages"."seq" = ?
  order by "volumes"."sort", "volumes"."id";

-- catalog.pendingPageIds
select "id"
  from "pages"
  where "status" = ?
  order by "id";

-- catalog.directoryEntryAt
select "directories".*, "pages"."seq" as "page_seq"
  from "directories"
  left join "pages" on "pages"."id" = "directories"."page_id"
  where "directories"."volume_id" = ?
  order by "directories"."sort", "directories"."id";

-- catalog.directoryEntriesAt
select "directories".*, "pages"."seq" as "page_seq"
  from "directories"
  left join "pages" on "pages"."id" = "directories"."page_id"
  where "directories"."volume_id" = ?
  order by "directories"."sort", "directories"."id";

-- catalog.listDirectory
select "directories".*, "pages"."seq" as "page_seq"
  from "directories"
  left join "pages" on "pages"."id" = "directories"."page_id"
  where "directories"."volume_id" = ?
  order by "directories"."sort", "directories"."id";

-- catalog.incrementViews
update "books"
  set "view_count" = "view_count" + ?
  where "id" = ?;

-- catalog.grantPrivilege
insert into "book_privileges" ("user_id", "book_id", "starts_at", "expires_at", "created_at")
  values (?, ?, ?, ?, ?);

-- catalog.addFootprint
insert into "footprints" ("user_id", "book_id", "volume_id", "created_at")
  values (?, ?, ?, ?);

-- catalog.setPyramid
update "pages"
  set "pyramid_key" = ?, "status" = ?
  where "id" = ?;

-- catalog.updateBook
update "books"
  set "title" = ?, "updated_at" = ?, "title_search" = ?
  where "id" = ?;

-- catalog.createBook
insert into "books" ("title", "title_search", "created_at", "updated_at")
  values (?, ?, ?, ?)
  returning "id";

-- catalog.createVolume
insert into "volumes" ("book_id", "name", "introduction", "sort", "created_at")
  values (?, ?, ?, ?, ?)
  returning "id";

-- catalog.createPage
insert into "pages" ("volume_id", "book_id", "seq", "name", "width", "height", "master_key", "ocr_json", "created_at")
  values (?, ?, ?, ?, ?, ?, ?, ?, ?)
  returning "id";

-- catalog.createDirectoryEntry
insert into "directories" ("volume_id", "book_id", "parent_id", "name", "page_id", "sort")
  values (?, ?, ?, ?, ?, ?)
  returning "id";

-- catalog.unpublishOwnBook
update "books"
  set "audit_status" = ?, "is_visible" = ?, "updated_at" = ?
  where "id" = ?
  and "owner_id" = ?
  and "is_lonely" = ?
  and "audit_status" in (?, ?);

-- catalog.deleteVolumesOfBook
delete
  from "volumes"
  where "book_id" = ?;

-- catalog.deleteBook
delete
  from "books"
  where "id" = ?;
