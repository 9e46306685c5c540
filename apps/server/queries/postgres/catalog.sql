-- catalog.hasBooks
select "id"
  from "books"
  limit $1;

-- catalog.adminBooks
select *
  from "books"
  where "is_lonely" = $1
  and ("owner_id" is null
  or "audit_status" = $2)
  and ("title_search" like $3 escape '\'
  or "call_number" like $4 escape '\'
  or "call_number" like $5 escape '\')
  and "is_visible" = $6
  order by "id" desc
  limit $7
  offset $8;
select count(*) as "n"
  from "books"
  where "is_lonely" = $1
  and ("owner_id" is null
  or "audit_status" = $2)
  and ("title_search" like $3 escape '\'
  or "call_number" like $4 escape '\'
  or "call_number" like $5 escape '\')
  and "is_visible" = $6;

-- catalog.volumeAndPageCounts
select "volumes"."book_id", count(distinct "volumes"."id") as "volumes", count("pages"."id") as "pages"
  from "volumes"
  left join "pages" on "pages"."volume_id" = "volumes"."id"
  where "volumes"."book_id" in ($1)
  group by "volumes"."book_id";

-- catalog.allBookIds
select "id"
  from "books"
  order by "id";

-- catalog.briefBooks
select "id", "title", "author", "call_number"
  from "books"
  where "id" in ($1);

-- catalog.findBook
select *
  from "books"
  where "id" = $1;

-- catalog.findBookBySourceKey
select *
  from "books"
  where "source_key" = $1;

-- catalog.hasReaderData
select count(*) as "n"
  from "collections"
  where "book_id" = $1;
select count(*) as "n"
  from "notes"
  where "book_id" = $1;
select count(*) as "n"
  from "comments"
  where "book_id" = $1;
select count(*) as "n"
  from "reservations"
  where "book_id" = $1;
select count(*) as "n"
  from "print_items"
  where "book_id" = $1;

-- catalog.searchBooks
select *
  from "books"
  where "is_visible" = $1
  and "audit_status" = $2
  and "title_search" like $3 escape '\'
  and ("class_code" = $4
  or ("class_code" > $5
  and "class_code" < $6))
  order by "id" asc
  limit $7
  offset $8;
select count(*) as "n"
  from "books"
  where "is_visible" = $1
  and "audit_status" = $2
  and "title_search" like $3 escape '\'
  and ("class_code" = $4
  or ("class_code" > $5
  and "class_code" < $6));

-- catalog.advancedSearch
select *
  from "books"
  where "is_visible" = $1
  and "audit_status" = $2
  and ("title_search" like $3 escape '\'
  or lower("author") like $4 escape '\')
  order by "id" asc
  limit $5
  offset $6;
select count(*) as "n"
  from "books"
  where "is_visible" = $1
  and "audit_status" = $2
  and ("title_search" like $3 escape '\'
  or lower("author") like $4 escape '\');

-- catalog.hotBooks
select "books".*
  from "books"
  where "is_visible" = $1
  and "audit_status" = $2
  and exists (select "volumes"."id"
  from "volumes"
  where "volumes"."book_id" = "books"."id")
  order by "view_count" desc, "id" asc
  limit $3
  offset $4;
select count(*) as "n"
  from "books"
  where "is_visible" = $1
  and "audit_status" = $2
  and exists (select "volumes"."id"
  from "volumes"
  where "volumes"."book_id" = "books"."id");

-- catalog.publicBooks
select *
  from "books"
  where "is_visible" = $1
  and "audit_status" = $2
  and "is_open" = $3
  order by "id";
select "volumes"."id", "volumes"."book_id"
  from "volumes"
  inner join "books" on "books"."id" = "volumes"."book_id"
  where "books"."is_visible" = $1
  and "books"."audit_status" = $2
  and "books"."is_open" = $3
  order by "volumes"."sort", "volumes"."id";

-- catalog.hasActivePrivilege
select "id"
  from "book_privileges"
  where "user_id" = $1
  and "book_id" = $2
  and "starts_at" <= $3
  and "expires_at" > $4;
select "id"
  from "users"
  where "id" = $1
  and "reader_flag" = $2
  and ("flag_expires_at" is null
  or "flag_expires_at" > $3);

-- catalog.countFootprints
select count(*) as "n"
  from "footprints"
  where "user_id" = $1;

-- catalog.listVolumes
select "volumes".*, (select count(*) as "n"
  from "pages"
  where "pages"."volume_id" = "volumes"."id") as "image_count"
  from "volumes"
  where "book_id" = $1
  order by "sort", "id";

-- catalog.countVolumes
select count(*) as "n"
  from "volumes"
  where "book_id" = $1;

-- catalog.findVolume
select *
  from "volumes"
  where "id" = $1;

-- catalog.pagesWithText
select "id", "book_id", "volume_id", "ocr_json"
  from "pages"
  where "book_id" = $1
  and "ocr_json" is not null
  order by "id";

-- catalog.allMasterKeys
select "master_key"
  from "pages";

-- catalog.pagesWithPyramids
select "id", "pyramid_key"
  from "pages"
  where "pyramid_key" is not null
  and "id" > $1
  order by "id"
  limit $2;

-- catalog.pyramidInUse
select "id"
  from "pages"
  where "pyramid_key" = $1
  limit $2;

-- catalog.pageFiles
select "id", "master_key", "pyramid_key"
  from "pages"
  where "volume_id" = $1;

-- catalog.lastPageSeq
update "volumes"
  set "name" = "name"
  where "id" = $1;
select max("seq") as "seq"
  from "pages"
  where "volume_id" = $1;

-- catalog.listPages
select *
  from "pages"
  where "volume_id" = $1
  order by "seq";

-- catalog.findPage
select *
  from "pages"
  where "id" = $1;

-- catalog.findImagePage
select "id", "volume_id", "book_id", "seq", "name", "width", "height", "master_key", "pyramid_key", "status", "created_at", "file_bytes"
  from "pages"
  where "id" = $1;

-- catalog.coverPage
select "pages".*
  from "pages"
  inner join "volumes" on "volumes"."id" = "pages"."volume_id"
  where "pages"."book_id" = $1
  order by "volumes"."sort", "volumes"."id", "pages"."seq"
  limit $2;

-- catalog.coverPageIds
select "pages"."book_id", "pages"."id", "volumes"."sort", "volumes"."id" as "volume_id", "pages"."seq"
  from "pages"
  inner join "volumes" on "volumes"."id" = "pages"."volume_id"
  where "pages"."book_id" in ($1)
  and "pages"."seq" = $2
  order by "volumes"."sort", "volumes"."id";

-- catalog.pendingPageIds
select "id"
  from "pages"
  where "status" = $1
  order by "id";

-- catalog.directoryEntryAt
select "directories".*, "pages"."seq" as "page_seq"
  from "directories"
  left join "pages" on "pages"."id" = "directories"."page_id"
  where "directories"."volume_id" = $1
  order by "directories"."sort", "directories"."id";

-- catalog.directoryEntriesAt
select "directories".*, "pages"."seq" as "page_seq"
  from "directories"
  left join "pages" on "pages"."id" = "directories"."page_id"
  where "directories"."volume_id" = $1
  order by "directories"."sort", "directories"."id";

-- catalog.listDirectory
select "directories".*, "pages"."seq" as "page_seq"
  from "directories"
  left join "pages" on "pages"."id" = "directories"."page_id"
  where "directories"."volume_id" = $1
  order by "directories"."sort", "directories"."id";

-- catalog.incrementViews
update "books"
  set "view_count" = "view_count" + $1
  where "id" = $2;

-- catalog.grantPrivilege
insert into "book_privileges" ("user_id", "book_id", "starts_at", "expires_at", "created_at")
  values ($1, $2, $3, $4, $5);

-- catalog.addFootprint
insert into "footprints" ("user_id", "book_id", "volume_id", "created_at")
  values ($1, $2, $3, $4);

-- catalog.setPyramid
update "pages"
  set "pyramid_key" = $1, "status" = $2
  where "id" = $3;

-- catalog.updateBook
update "books"
  set "title" = $1, "updated_at" = $2, "title_search" = $3
  where "id" = $4;

-- catalog.createBook
insert into "books" ("title", "title_search", "created_at", "updated_at")
  values ($1, $2, $3, $4)
  returning "id";

-- catalog.createVolume
insert into "volumes" ("book_id", "name", "introduction", "sort", "created_at")
  values ($1, $2, $3, $4, $5)
  returning "id";

-- catalog.createPage
insert into "pages" ("volume_id", "book_id", "seq", "name", "width", "height", "master_key", "ocr_json", "created_at")
  values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
  returning "id";

-- catalog.createDirectoryEntry
insert into "directories" ("volume_id", "book_id", "parent_id", "name", "page_id", "sort")
  values ($1, $2, $3, $4, $5, $6)
  returning "id";

-- catalog.unpublishOwnBook
update "books"
  set "audit_status" = $1, "is_visible" = $2, "updated_at" = $3
  where "id" = $4
  and "owner_id" = $5
  and "is_lonely" = $6
  and "audit_status" in ($7, $8);

-- catalog.deleteVolumesOfBook
delete
  from "volumes"
  where "book_id" = $1;

-- catalog.deleteBook
delete
  from "books"
  where "id" = $1;
