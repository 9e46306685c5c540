-- search.eachPageSlice
select "t"."page_id", "t"."book_id", "t"."volume_id", "v"."sort" as "volume_sort", "p"."seq", "t"."text"
  from "page_texts" as "t"
  inner join "pages" as "p" on "p"."id" = "t"."page_id"
  inner join "volumes" as "v" on "v"."id" = "t"."volume_id"
  where "t"."page_id" in (?, ?);

-- search.pageTexts
select "page_id", "text"
  from "page_texts"
  where "page_id" in (?, ?);

-- search.bookFacts
select "id", "title", "author", "class_code", "publish_dynasty", "coverage_dynasty", "is_visible", "audit_status"
  from "books"
  where "id" in (?);

-- search.classificationNames
select "code", "name"
  from "classifications";
