-- printOrders.createOrder
insert into "print_orders" ("order_num", "user_id", "extract", "payment", "is_invoice", "invoice_title", "consignee", "consignee_phone", "delivery_address", "total_fen", "pay_status", "paid_at", "created_at", "updated_at")
  values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  returning "id";

-- printOrders.lockOrders
update "print_orders"
  set "updated_at" = ?
  where "id" in (?);

-- printOrders.lockUnpaidOrder
update "print_orders"
  set "updated_at" = ?
  where "id" = ?
  and "pay_status" = ?
  returning "total_fen";

-- printOrders.resettleOrder
update "print_orders"
  set "total_fen" = ?, "updated_at" = ?
  where "id" = ?
  and "pay_status" = ?;

-- printOrders.orderByNum
select "print_orders".*, coalesce("users"."real_name", "users"."nick_name", "users"."login_name") as "creator"
  from "print_orders"
  inner join "users" on "users"."id" = "print_orders"."user_id"
  where "order_num" = ?;

-- printOrders.markOrderPaid
update "print_orders"
  set "pay_status" = ?, "paid_at" = ?, "updated_at" = ?
  where "id" = ?
  and "pay_status" = ?;

-- printOrders.paidOrderSummary
select "print_orders"."order_num", "print_orders"."payment", "print_orders"."total_fen", coalesce("users"."real_name", "users"."nick_name", "users"."login_name") as "name", (select count(*) as "n"
  from "print_items"
  where "print_items"."order_id" = "print_orders"."id") as "pages"
  from "print_orders"
  inner join "users" on "users"."id" = "print_orders"."user_id"
  where "print_orders"."id" = ?;

-- printOrders.orderForCover
select "print_orders".*, "users"."real_name", "users"."nick_name", "users"."login_name", "users"."phone"
  from "print_orders"
  inner join "users" on "users"."id" = "print_orders"."user_id"
  where "print_orders"."id" = ?;

-- printOrders.deskOrders
select count(*) as "n"
  from "print_orders"
  inner join "users" on "users"."id" = "print_orders"."user_id"
  where exists (select "id"
  from "print_items"
  where "print_items"."order_id" = "print_orders"."id")
  and "users"."real_name" like ? escape '\'
  and "users"."phone" like ? escape '\'
  and "users"."email" like ? escape '\'
  and "print_orders"."extract" = ?;
select "users"."real_name", "users"."phone", "users"."email", "print_orders"."order_num", "print_orders"."created_at", "print_orders"."extract", "print_orders"."payment", "print_orders"."total_fen", "print_orders"."pay_status", "print_orders"."is_invoice", "print_orders"."invoice_title", coalesce("users"."nick_name", "users"."login_name") as "creator", (select count(*) as "n"
  from "print_items"
  where "print_items"."order_id" = "print_orders"."id"
  and "print_items"."pay_status" = ?
  and "print_items"."print_status" = ?) as "pay_no_print"
  from "print_orders"
  inner join "users" on "users"."id" = "print_orders"."user_id"
  where exists (select "id"
  from "print_items"
  where "print_items"."order_id" = "print_orders"."id")
  and "users"."real_name" like ? escape '\'
  and "users"."phone" like ? escape '\'
  and "users"."email" like ? escape '\'
  and "print_orders"."extract" = ?
  order by "print_orders"."id" desc
  limit ?
  offset ?;

-- printOrders.dropEmptyOrders
delete
  from "print_orders"
  where "user_id" = ?
  and "pay_status" = ?
  and not exists (select "id"
  from "print_items"
  where "print_items"."order_id" = "print_orders"."id");
