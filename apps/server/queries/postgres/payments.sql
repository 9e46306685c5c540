-- payments.createTrade
insert into "payments" ("order_id", "provider", "trade_no", "amount_fen", "status", "created_at", "paid_at")
  values ($1, $2, $3, $4, $5, $6, $7);

-- payments.trade
select "payments"."id", "payments"."trade_no", "payments"."amount_fen", "payments"."order_id", "payments"."status", "payments"."created_at", "print_orders"."total_fen", "print_orders"."order_num"
  from "payments"
  inner join "print_orders" on "print_orders"."id" = "payments"."order_id"
  where "payments"."trade_no" = $1;

-- payments.recordNotice
insert into "payment_notices" ("notice_id", "trade_no", "body", "received_at")
  values ($1, $2, $3, $4)
  on conflict ("notice_id") do nothing
  returning "notice_id";

-- payments.markTradePaid
update "payments"
  set "status" = $1, "paid_at" = $2
  where "id" = $3
  and "status" = $4;

-- payments.tradeStatus
select "status"
  from "payments"
  where "id" = $1;

-- payments.closeTrade
update "payments"
  set "status" = $1
  where "trade_no" = $2
  and "status" = $3;

-- payments.closeTrades
update "payments"
  set "status" = $1
  where "order_id" = $2
  and "status" = $3;
