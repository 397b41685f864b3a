-- Ticket categories (spec section 3: categories with an optional parent).
INSERT INTO "ticket_categories" ("id", "parent_id", "name", "sort_order") VALUES
  (1, NULL, 'Entegrasyon', 1),
  (2, NULL, 'Bağlantı ve API Ayarları', 2),
  (3, NULL, 'Lisans ve Ödeme', 3),
  (4, NULL, 'Hesap ve Kullanıcı', 4),
  (5, NULL, 'Diğer', 5),
  (101, 1, 'Ürün Aktarımı', 1),
  (102, 1, 'Stok Güncelleme', 2),
  (103, 1, 'Fiyat Güncelleme', 3),
  (104, 1, 'Sipariş Aktarımı', 4),
  (105, 1, 'Fatura Aktarımı', 5),
  (106, 1, 'Kategori Aktarımı', 6),
  (201, 2, 'ERP Bağlantısı', 1),
  (202, 2, 'E-Ticaret Bağlantısı', 2),
  (203, 2, 'Eşleştirme Ayarları', 3),
  (301, 3, 'Lisans Süresi', 1),
  (302, 3, 'Fatura ve Ödeme', 2),
  (401, 4, 'Giriş ve Şifre', 1),
  (402, 4, 'Şirket Bilgileri', 2),
  (501, 5, 'Öneri', 1),
  (502, 5, 'Genel Soru', 2);--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('ticket_categories', 'id'), (SELECT max("id") FROM "ticket_categories"));
