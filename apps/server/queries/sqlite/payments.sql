-- payments.createTrade
insert into "payments" ("order_id", "provider", "trade_no", "amount_fen", "status", "created_at", "paid_at")
  values (?, ?, ?, ?, ?, ?, ?);

-- payments.trade
select "payments"."id", "payments"."trade_no", "payments"."amount_fen", "payments"."order_id", "payments"."status", "payments"."created_at", "print_orders"."total_fen", "print_orders"."order_num"
  from "payments"
  inner join "print_orders" on "print_orders"."id" = "payments"."order_id"
  where "payments"."trade_no" = ?;

-- payments.recordNotice
insert into "payment_notices" ("notice_id", "trade_no", "body", "received_at")
  values (?, ?, ?, ?)
  on conflict ("notice_id") do nothing
  returning "notice_id";

-- payments.markTradePaid
update "payments"
  set "status" = ?, "paid_at" = ?
  where "id" = ?
  and "status" = ?;

-- payments.tradeStatus
select "status"
  from "payments"
  where "id" = ?;

-- payments.closeTrade
update "payments"
  set "status" = ?
  where "trade_no" = ?
  and "status" = ?;

-- payments.closeTrades
update "payments"
  set "status" = ?
  where "order_id" = ?
  and "status" = ?;
