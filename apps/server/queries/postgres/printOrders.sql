-- printOrders.createOrder
insert into "print_orders" ("order_num", "user_id", "extract", "payment", "is_invoice", "invoice_title", "consignee", "consignee_phone", "delivery_address", "total_fen", "pay_status", "paid_at", "created_at", "updated_at")
  values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
  returning "id";

-- printOrders.lockOrders
update "print_orders"
  set "updated_at" = $1
  where "id" in ($2);

-- printOrders.lockUnpaidOrder
update "print_orders"
  set "updated_at" = $1
  where "id" = $2
  and "pay_status" = $3
  returning "total_fen";

-- printOrders.resettleOrder
update "print_orders"
  set "total_fen" = $1, "updated_at" = $2
  where "id" = $3
  and "pay_status" = $4;

-- printOrders.orderByNum
select "print_orders".*, coalesce("users"."real_name", "users"."nick_name", "users"."login_name") as "creator"
  from "print_orders"
  inner join "users" on "users"."id" = "print_orders"."user_id"
  where "order_num" = $1;

-- printOrders.markOrderPaid
update "print_orders"
  set "pay_status" = $1, "paid_at" = $2, "updated_at" = $3
  where "id" = $4
  and "pay_status" = $5;

-- printOrders.paidOrderSummary
select "print_orders"."order_num", "print_orders"."payment", "print_orders"."total_fen", coalesce("users"."real_name", "users"."nick_name", "users"."login_name") as "name", (select count(*) as "n"
  from "print_items"
  where "print_items"."order_id" = "print_orders"."id") as "pages"
  from "print_orders"
  inner join "users" on "users"."id" = "print_orders"."user_id"
  where "print_orders"."id" = $1;

-- printOrders.orderForCover
select "print_orders".*, "users"."real_name", "users"."nick_name", "users"."login_name", "users"."phone"
  from "print_orders"
  inner join "users" on "users"."id" = "print_orders"."user_id"
  where "print_orders"."id" = $1;

-- printOrders.deskOrders
select count(*) as "n"
  from "print_orders"
  inner join "users" on "users"."id" = "print_orders"."user_id"
  where exists (select "id"
  from "print_items"
  where "print_items"."order_id" = "print_orders"."id")
  and "users"."real_name" like $1 escape '\'
  and "users"."phone" like $2 escape '\'
  and "users"."email" like $3 escape '\'
  and "print_orders"."extract" = $4;
select "users"."real_name", "users"."phone", "users"."email", "print_orders"."order_num", "print_orders"."created_at", "print_orders"."extract", "print_orders"."payment", "print_orders"."total_fen", "print_orders"."pay_status", "print_orders"."is_invoice", "print_orders"."invoice_title", coalesce("users"."nick_name", "users"."login_name") as "creator", (select count(*) as "n"
  from "print_items"
  where "print_items"."order_id" = "print_orders"."id"
  and "print_items"."pay_status" = $1
  and "print_items"."print_status" = $2) as "pay_no_print"
  from "print_orders"
  inner join "users" on "users"."id" = "print_orders"."user_id"
  where exists (select "id"
  from "print_items"
  where "print_items"."order_id" = "print_orders"."id")
  and "users"."real_name" like $3 escape '\'
  and "users"."phone" like $4 escape '\'
  and "users"."email" like $5 escape '\'
  and "print_orders"."extract" = $6
  order by "print_orders"."id" desc
  limit $7
  offset $8;

-- printOrders.dropEmptyOrders
delete
  from "print_orders"
  where "user_id" = $1
  and "pay_status" = $2
  and not exists (select "id"
  from "print_items"
  where "print_items"."order_id" = "print_orders"."id");
