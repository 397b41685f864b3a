/** Word lists for realistic Turkish test data. */

export interface CategorySeed {
  root: string;
  children: Array<{ name: string; items: string[]; unit?: string; vat?: number; sizes?: string[] }>;
}

export const CATEGORY_TREE: CategorySeed[] = [
  {
    root: "Giyim",
    children: [
      {
        name: "Tişört",
        items: ["Basic Tişört", "Oversize Tişört", "Polo Yaka Tişört"],
        sizes: ["S", "M", "L", "XL"],
      },
      {
        name: "Pantolon",
        items: ["Kot Pantolon", "Kumaş Pantolon", "Eşofman Altı"],
        sizes: ["30", "32", "34", "36"],
      },
      { name: "Dış Giyim", items: ["Şişme Mont", "Trençkot", "Hırka"], sizes: ["S", "M", "L"] },
    ],
  },
  {
    root: "Ayakkabı",
    children: [
      {
        name: "Spor Ayakkabı",
        items: ["Koşu Ayakkabısı", "Sneaker", "Yürüyüş Ayakkabısı"],
        sizes: ["39", "40", "41", "42", "43"],
      },
      { name: "Terlik", items: ["Ev Terliği", "Plaj Terliği"], sizes: ["38", "40", "42"] },
    ],
  },
  {
    root: "Elektronik",
    children: [
      {
        name: "Telefon Aksesuarları",
        items: ["Şarj Kablosu", "Hızlı Şarj Adaptörü", "Telefon Kılıfı", "Powerbank"],
      },
      { name: "Bilgisayar", items: ["Kablosuz Mouse", "Mekanik Klavye", "USB Bellek", "Laptop Çantası"] },
      { name: "Ses Sistemleri", items: ["Bluetooth Kulaklık", "Taşınabilir Hoparlör", "Kulak İçi Kulaklık"] },
    ],
  },
  {
    root: "Ev & Yaşam",
    children: [
      {
        name: "Mutfak",
        items: ["Çelik Tencere Seti", "Çay Bardağı Seti", "Döküm Tava", "Kahve Makinesi", "Kesme Tahtası"],
      },
      { name: "Ev Tekstili", items: ["Nevresim Takımı", "Pamuklu Havlu", "Battaniye", "Kırlent Kılıfı"] },
      { name: "Dekorasyon", items: ["Duvar Saati", "Seramik Vazo", "Çerçeve", "Mum Seti"] },
    ],
  },
  {
    root: "Süpermarket",
    children: [
      {
        name: "Kahvaltılık",
        items: ["Süzme Bal", "Siyah Zeytin", "Fındık Ezmesi", "Vişne Reçeli"],
        unit: "Adet",
        vat: 1,
      },
      {
        name: "Temel Gıda",
        items: ["Baldo Pirinç", "Kırmızı Mercimek", "Bulgur", "Makarna"],
        unit: "Kg",
        vat: 1,
      },
      {
        name: "İçecek",
        items: ["Türk Kahvesi", "Siyah Çay", "Maden Suyu", "Meyve Suyu"],
        unit: "Paket",
        vat: 1,
      },
    ],
  },
  {
    root: "Kozmetik",
    children: [
      { name: "Cilt Bakımı", items: ["Nemlendirici Krem", "Güneş Kremi", "Yüz Temizleme Jeli"] },
      { name: "Kişisel Bakım", items: ["Şampuan", "Duş Jeli", "Deodorant", "Diş Macunu"] },
    ],
  },
  {
    root: "Kitap & Kırtasiye",
    children: [
      {
        name: "Kırtasiye",
        items: ["Spiralli Defter", "Tükenmez Kalem Seti", "Boya Kalemi", "Ajanda"],
        vat: 20,
      },
      { name: "Kitap", items: ["Roman", "Çocuk Kitabı", "Kişisel Gelişim Kitabı"], vat: 0 },
    ],
  },
];

export const BRANDS = [
  "Arçelik",
  "Vestel",
  "Karaca",
  "Koton",
  "LC Waikiki",
  "Mavi",
  "DeFacto",
  "Kiğılı",
  "English Home",
  "Paşabahçe",
  "Emsan",
  "Hamilton",
  "Kahve Dünyası",
  "Tariş",
  "Tat",
  "Eti",
  "Ülker",
  "Çaykur",
  "Doğadan",
  "Flo",
  "Kinetix",
  "Lumberjack",
  "Hummel",
  "Derby",
  "Yataş",
  "Taç",
  "Özdilek",
  "Schafer",
  "Korkmaz",
  "Pierre Cardin",
];

export const COLORS = [
  "Siyah",
  "Beyaz",
  "Lacivert",
  "Kırmızı",
  "Gri",
  "Bej",
  "Yeşil",
  "Mavi",
  "Bordo",
  "Haki",
];

export const ADJECTIVES = [
  "Klasik",
  "Premium",
  "Ekonomik",
  "Yeni Sezon",
  "Organik",
  "Doğal",
  "Pratik",
  "Lüks",
  "Günlük",
];

export const FIRST_NAMES = [
  "Ahmet",
  "Mehmet",
  "Mustafa",
  "Ayşe",
  "Fatma",
  "Emine",
  "Hüseyin",
  "Zeynep",
  "Elif",
  "Can",
  "Deniz",
  "Selin",
  "Burak",
  "Özge",
  "Gökhan",
  "Şule",
  "İbrahim",
  "Çağla",
  "Ömer",
  "Büşra",
  "Yusuf",
  "Merve",
  "Emre",
  "Gülşen",
];

export const LAST_NAMES = [
  "Yılmaz",
  "Kaya",
  "Demir",
  "Şahin",
  "Çelik",
  "Yıldız",
  "Yıldırım",
  "Öztürk",
  "Aydın",
  "Özdemir",
  "Arslan",
  "Doğan",
  "Kılıç",
  "Aslan",
  "Çetin",
  "Kara",
  "Koç",
  "Kurt",
  "Özkan",
  "Şimşek",
  "Güneş",
  "Erdoğan",
  "Aksoy",
  "Bulut",
];

export const CITIES: Array<{ city: string; districts: string[]; postal: string }> = [
  {
    city: "İstanbul",
    districts: ["Kadıköy", "Beşiktaş", "Üsküdar", "Şişli", "Bakırköy", "Ataşehir"],
    postal: "34",
  },
  { city: "Ankara", districts: ["Çankaya", "Keçiören", "Yenimahalle", "Etimesgut"], postal: "06" },
  { city: "İzmir", districts: ["Karşıyaka", "Bornova", "Konak", "Buca"], postal: "35" },
  { city: "Bursa", districts: ["Nilüfer", "Osmangazi", "Yıldırım"], postal: "16" },
  { city: "Antalya", districts: ["Muratpaşa", "Konyaaltı", "Kepez"], postal: "07" },
  { city: "Konya", districts: ["Selçuklu", "Meram", "Karatay"], postal: "42" },
  { city: "Gaziantep", districts: ["Şahinbey", "Şehitkamil"], postal: "27" },
  { city: "Eskişehir", districts: ["Odunpazarı", "Tepebaşı"], postal: "26" },
  { city: "Trabzon", districts: ["Ortahisar", "Akçaabat"], postal: "61" },
  { city: "Kayseri", districts: ["Melikgazi", "Kocasinan", "Talas"], postal: "38" },
];

export const STREETS = [
  "Atatürk Caddesi",
  "Cumhuriyet Caddesi",
  "İstiklal Caddesi",
  "Bağdat Caddesi",
  "Gazi Bulvarı",
  "Menekşe Sokak",
  "Lale Sokak",
  "Fevzi Çakmak Caddesi",
  "Mimar Sinan Sokak",
  "Kıbrıs Şehitleri Caddesi",
];

export const NEIGHBOURHOODS = [
  "Merkez Mahallesi",
  "Yeni Mahalle",
  "Cumhuriyet Mahallesi",
  "Fatih Mahallesi",
  "Bahçelievler Mahallesi",
];

export const CARGO_COMPANIES = ["Yurtiçi Kargo", "Aras Kargo", "MNG Kargo", "PTT Kargo", "Sürat Kargo"];

export const TAX_OFFICES = ["Kadıköy", "Çankaya", "Karşıyaka", "Nilüfer", "Muratpaşa", "Beşiktaş", "Selçuk"];
