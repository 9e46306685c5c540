-- printDesk.userRoles
select "role"
  from "user_roles"
  where "user_id" = ?;

-- printDesk.log
insert into "print_log" ("order_id", "action", "item_ids", "detail", "actor_id", "created_at")
  values (?, ?, ?, ?, ?, ?);

-- printDesk.orderLog
select "print_log"."action", "print_log"."item_ids", "print_log"."detail", "print_log"."created_at", "users"."login_name" as "actor"
  from "print_log"
  inner join "print_orders" on "print_orders"."id" = "print_log"."order_id"
  left join "users" on "users"."id" = "print_log"."actor_id"
  where "print_orders"."order_num" = ?
  order by "print_log"."id";

-- printDesk.ordersOfFile
select distinct "print_orders"."order_num"
  from "print_log"
  inner join "print_orders" on "print_orders"."id" = "print_log"."order_id"
  where "print_log"."action" = ?
  and "print_log"."detail" = ?
  order by "print_orders"."order_num";

-- printDesk.notify
insert into "notifications" ("audience", "text", "link", "created_at")
  values (?, ?, ?, ?);

-- printDesk.notifications
select *
  from "notifications"
  where "audience" = ?
  order by "id" desc
  limit ?;
