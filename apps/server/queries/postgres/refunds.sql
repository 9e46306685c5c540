-- refunds.create
insert into "refunds" ("order_id", "provider", "refund_no", "trade_no", "amount_fen", "reason", "status", "detail", "actor_id", "created_at", "updated_at")
  values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
  returning "id";

-- refunds.byId
select "refunds"."id", "refunds"."order_id", "print_orders"."order_num", "refunds"."provider", "refunds"."refund_no", "refunds"."trade_no", "refunds"."amount_fen", "refunds"."reason", "refunds"."status", "refunds"."detail", "refunds"."created_at", "refunds"."updated_at", coalesce("users"."real_name", "users"."nick_name", "users"."login_name") as "actor"
  from "refunds"
  inner join "print_orders" on "print_orders"."id" = "refunds"."order_id"
  left join "users" on "users"."id" = "refunds"."actor_id"
  where "refunds"."id" = $1;

-- refunds.ofTrade
select "id"
  from "refunds"
  where "trade_no" = $1;

-- refunds.ofOrder
select "refunds"."id", "refunds"."order_id", "print_orders"."order_num", "refunds"."provider", "refunds"."refund_no", "refunds"."trade_no", "refunds"."amount_fen", "refunds"."reason", "refunds"."status", "refunds"."detail", "refunds"."created_at", "refunds"."updated_at", coalesce("users"."real_name", "users"."nick_name", "users"."login_name") as "actor"
  from "refunds"
  inner join "print_orders" on "print_orders"."id" = "refunds"."order_id"
  left join "users" on "users"."id" = "refunds"."actor_id"
  where "refunds"."order_id" = $1
  order by "refunds"."id" desc;

-- refunds.settle
update "refunds"
  set "status" = $1, "detail" = $2, "updated_at" = $3
  where "id" = $4
  and "status" != $5;

-- refunds.paidTrade
select "trade_no", "provider", "amount_fen"
  from "payments"
  where "order_id" = $1
  and "status" = $2;

-- refunds.tradesBetween
select "payments"."trade_no", "payments"."provider", "payments"."status", "payments"."amount_fen", "payments"."created_at", "print_orders"."order_num", (select coalesce(sum("refunds"."amount_fen"), 0) as "s"
  from "refunds"
  where "refunds"."trade_no" = "payments"."trade_no"
  and "refunds"."status" = $1) as "refunded_fen"
  from "payments"
  inner join "print_orders" on "print_orders"."id" = "payments"."order_id"
  where "payments"."created_at" >= $2
  and "payments"."created_at" < $3
  order by "payments"."created_at", "payments"."id";

-- refunds.cancelPaidOrder
update "print_orders"
  set "pay_status" = $1, "updated_at" = $2
  where "id" = $3
  and "pay_status" = $4;
