-- refunds.create
insert into "refunds" ("order_id", "provider", "refund_no", "trade_no", "amount_fen", "reason", "status", "detail", "actor_id", "created_at", "updated_at")
  values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  returning "id";

-- refunds.byId
select "refunds"."id", "refunds"."order_id", "print_orders"."order_num", "refunds"."provider", "refunds"."refund_no", "refunds"."trade_no", "refunds"."amount_fen", "refunds"."reason", "refunds"."status", "refunds"."detail", "refunds"."created_at", "refunds"."updated_at", coalesce("users"."real_name", "users"."nick_name", "users"."login_name") as "actor"
  from "refunds"
  inner join "print_orders" on "print_orders"."id" = "refunds"."order_id"
  left join "users" on "users"."id" = "refunds"."actor_id"
  where "refunds"."id" = ?;

-- refunds.ofTrade
select "id"
  from "refunds"
  where "trade_no" = ?;

-- refunds.ofOrder
select "refunds"."id", "refunds"."order_id", "print_orders"."order_num", "refunds"."provider", "refunds"."refund_no", "refunds"."trade_no", "refunds"."amount_fen", "refunds"."reason", "refunds"."status", "refunds"."detail", "refunds"."created_at", "refunds"."updated_at", coalesce("users"."real_name", "users"."nick_name", "users"."login_name") as "actor"
  from "refunds"
  inner join "print_orders" on "print_orders"."id" = "refunds"."order_id"
  left join "users" on "users"."id" = "refunds"."actor_id"
  where "refunds"."order_id" = ?
  order by "refunds"."id" desc;

-- refunds.settle
update "refunds"
  set "status" = ?, "detail" = ?, "updated_at" = ?
  where "id" = ?
  and "status" != ?;

-- refunds.paidTrade
select "trade_no", "provider", "amount_fen"
  from "payments"
  where "order_id" = ?
  and "status" = ?;

-- refunds.tradesBetween
select "payments"."trade_no", "payments"."provider", "payments"."status", "payments"."amount_fen", "payments"."created_at", "print_orders"."order_num", (select coalesce(sum("refunds"."amount_fen"), 0) as "s"
  from "refunds"
  where "refunds"."trade_no" = "payments"."trade_no"
  and "refunds"."status" = ?) as "refunded_fen"
  from "payments"
  inner join "print_orders" on "print_orders"."id" = "payments"."order_id"
  where "payments"."created_at" >= ?
  and "payments"."created_at" < ?
  order by "payments"."created_at", "payments"."id";

-- refunds.cancelPaidOrder
update "print_orders"
  set "pay_status" = ?, "updated_at" = ?
  where "id" = ?
  and "pay_status" = ?;
