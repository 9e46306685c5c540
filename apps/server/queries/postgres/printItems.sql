-- printItems.add
insert into "print_items" ("user_id", "book_id", "volume_id", "page_id", "directory_name", "paper_size", "amount_fen", "order_id", "pay_status", "print_status", "express_number", "created_at")
  values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12);

-- printItems.list
select "print_items".*, "books"."title", "books"."call_number", "pages"."seq", "volumes"."name" as "volume_name", "print_orders"."order_num", "print_orders"."payment", "print_orders"."extract", coalesce("users"."real_name", "users"."nick_name", "users"."login_name") as "creator"
  from "print_items"
  inner join "books" on "books"."id" = "print_items"."book_id"
  inner join "pages" on "pages"."id" = "print_items"."page_id"
  inner join "volumes" on "volumes"."id" = "print_items"."volume_id"
  inner join "users" on "users"."id" = "print_items"."user_id"
  left join "print_orders" on "print_orders"."id" = "print_items"."order_id"
  where "print_items"."user_id" = $1
  and "print_items"."pay_status" = $2
  order by "print_items"."book_id", "volumes"."sort", "print_items"."volume_id", "pages"."seq", "print_items"."id"
  limit $3
  offset $4;

-- printItems.count
select count(*) as "n"
  from "print_items"
  where "user_id" = $1
  and "pay_status" = $2;

-- printItems.userItems
select "id", "pay_status", "order_id", "amount_fen"
  from "print_items"
  where "id" in ($1, $2)
  and "user_id" = $3;

-- printItems.assignItems
update "print_items"
  set "order_id" = $1
  where "id" in ($2)
  and "pay_status" = $3;

-- printItems.orderItemAmounts
select "amount_fen", "pay_status"
  from "print_items"
  where "order_id" = $1;

-- printItems.itemBookIds
select "book_id"
  from "print_items"
  where "id" in ($1)
  and "user_id" = $2;

-- printItems.orderBookIds
select "book_id"
  from "print_items"
  where "order_id" = $1;

-- printItems.hasUnpaidItems
select "id"
  from "print_items"
  where "order_id" = $1
  and "pay_status" = $2;

-- printItems.deskItems
select "print_items"."id", "print_items"."order_id", "print_items"."user_id", "print_items"."book_id", "print_items"."pay_status", "print_items"."print_status", "print_items"."express_number", "print_orders"."extract"
  from "print_items"
  inner join "print_orders" on "print_orders"."id" = "print_items"."order_id"
  where "print_items"."id" in ($1);

-- printItems.markOrderItemsPaid
update "print_items"
  set "pay_status" = $1
  where "order_id" = $2;

-- printItems.markItemsPaid
update "print_items"
  set "pay_status" = $1
  where "id" in ($2)
  and "pay_status" = $3;

-- printItems.markItemsPrinted
update "print_items"
  set "print_status" = $1
  where "id" in ($2)
  and "pay_status" = $3;

-- printItems.setExpress
update "print_items"
  set "express_number" = $1
  where "id" in ($2)
  and "express_number" is null;

-- printItems.deleteUnpaidItems
delete
  from "print_items"
  where "id" in ($1)
  and "user_id" = $2
  and "pay_status" = $3;
